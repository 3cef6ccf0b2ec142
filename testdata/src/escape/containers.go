package escape

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
)

var names = []string{"sha256", "sha512", "md5"}

// digestByName builds a map of hashers on every call, to look one up by
// name: every hasher of the map reaches the heap, and the map is dropped
// at the return.
func digestByName(name string, b []byte) []byte {
	byName := map[string]hash.Hash{
		"md5":    md5.New(),    // want `hasher-alloc: md5.New\(\) escapes to the heap \(held by a container literal that does not outlive the call\) once per call of digestByName, which CaseLocalMap calls once per .*; make only the hasher that is read \(no automatic fix: it is one of the 3 hashers of a literal, all made each time it is evaluated`
		"sha256": sha256.New(), // want `hasher-alloc: sha256.New\(\) escapes to the heap \(held by a container literal that does not outlive the call\) once per call of digestByName`
		"sha512": sha512.New(), // want `hasher-alloc: sha512.New\(\) escapes to the heap \(held by a container literal that does not outlive the call\) once per call of digestByName`
	}
	h, ok := byName[name]
	if !ok {
		return nil
	}
	h.Write(b)
	return h.Sum(nil)
}

func CaseLocalMap() {
	for _, n := range names {
		sums = append(sums[:0], digestByName(n, items[0]))
	}
}

// sumAll ranges over a slice of hashers that is local to the call.
func sumAll(b []byte) {
	for _, h := range []hash.Hash{sha256.New(), sha512.New()} { // want `hasher-alloc: sha256.New\(\) escapes to the heap \(held by a container literal` `hasher-alloc: sha512.New\(\) escapes to the heap \(held by a container literal`
		h.Write(b)
		sums = append(sums[:0], h.Sum(nil))
	}
}

func CaseLocalSlice() {
	for _, it := range items {
		sumAll(it)
	}
}

// hashersByName returns its map: its hashers are meant to outlive the
// call, never reported.
func hashersByName() map[string]hash.Hash {
	byName := map[string]hash.Hash{"sha256": sha256.New(), "md5": md5.New()}
	return byName
}

func CaseReturnedMap() {
	for range items {
		hashersByName()["md5"].Write(items[0])
	}
}

// holder keeps its map in a field: the hashers outlive the call.
type holder struct{ byName map[string]hash.Hash }

var held holder

func (x *holder) reset() {
	byName := map[string]hash.Hash{"sha256": sha256.New(), "sha512": sha512.New()}
	x.byName = byName
}

func CaseStoredMap() {
	for range items {
		held.reset()
	}
}

// pick returns the hasher it reads from its map: kept.
func pick(name string) hash.Hash {
	return map[string]hash.Hash{"sha256": sha256.New(), "sha512": sha512.New()}[name]
}

func CasePicked() {
	for _, n := range names {
		if h := pick(n); h != nil {
			h.Write(items[0])
		}
	}
}

// digestParts writes each part into the hasher it looks up: the loop
// hashes, but each call repeats the whole map, an allocation per hasher.
func digestParts(name string, parts ...[]byte) []byte {
	byName := map[string]hash.Hash{
		"sha256": sha256.New(), // want `hasher-alloc: sha256.New\(\) escapes to the heap \(held by a container literal that does not outlive the call\) once per call of digestParts, which CaseLocalMapParts calls once per .*it is one of the 2 hashers of a literal`
		"sha512": sha512.New(), // want `hasher-alloc: sha512.New\(\) escapes to the heap \(held by a container literal that does not outlive the call\) once per call of digestParts`
	}
	h, ok := byName[name]
	if !ok {
		return nil
	}
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

func CaseLocalMapParts() {
	for _, n := range names {
		sums = append(sums[:0], digestParts(n, items...))
	}
}

// digestOne holds a single hasher in its literal: one allocation per call,
// noise beside the hashing of its loop. Silent.
func digestOne(parts ...[]byte) []byte {
	for _, h := range []hash.Hash{sha256.New()} {
		for _, p := range parts {
			h.Write(p)
		}
		return h.Sum(nil)
	}
	return nil
}

func CaseLocalSliceOne() {
	for range names {
		sums = append(sums[:0], digestOne(items...))
	}
}
