package resultcache

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"github.com/hashalloc/hashalloc/internal/passes"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/types/objectpath"
)

// A unit entry holds what the analysis of a package needs of each package it
// imports: that package's types, as export data, and the facts the analyzers
// exported on it. With the unit entries of its dependencies, a changed
// package is type-checked and analyzed alone, as the go command's vet does
// with the export data and facts of its build cache.

// UnitKey returns the key of the unit entry of the package whose result has
// the key k: the same inputs make both.
func UnitKey(k Key) Key {
	return sha256.Sum256(append([]byte("unit\x00"), k[:]...))
}

// unitEntry is a unit entry as stored, gob-encoded.
type unitEntry struct {
	Export []byte // gcexportdata
	Facts  []unitFact
}

// unitFact is one fact of a unit entry: about the package when Object is
// empty, else about the object that path names in the package.
type unitFact struct {
	Analyzer string
	Object   objectpath.Path
	Fact     analysis.Fact
}

// EncodeUnit encodes the unit entry of pkg: its export data and the facts
// each analyzer of facts exported on it. A fact about an object no importer
// can name (no object path leads to it) is left out, as the vet protocol
// leaves it out.
func EncodeUnit(fset *token.FileSet, pkg *types.Package, facts map[*analysis.Analyzer]*passes.FactSet) ([]byte, error) {
	var e unitEntry
	var export bytes.Buffer
	if err := gcexportdata.Write(&export, fset, pkg); err != nil {
		return nil, fmt.Errorf("export data of %s: %v", pkg.Path(), err)
	}
	e.Export = export.Bytes()
	var enc objectpath.Encoder
	for a, set := range facts {
		register(a)
		objects, pkgFacts := set.Own(pkg)
		for _, f := range pkgFacts {
			e.Facts = append(e.Facts, unitFact{Analyzer: a.Name, Fact: f})
		}
		for _, f := range objects {
			path, err := enc.For(f.Object)
			if err != nil {
				continue // not reachable from an importer
			}
			e.Facts = append(e.Facts, unitFact{Analyzer: a.Name, Object: path, Fact: f.Fact})
		}
	}
	// One order, so that the same facts make the same entry.
	slices.SortFunc(e.Facts, func(x, y unitFact) int {
		return cmp.Or(cmp.Compare(x.Analyzer, y.Analyzer), cmp.Compare(x.Object, y.Object),
			cmp.Compare(fmt.Sprintf("%T", x.Fact), fmt.Sprintf("%T", y.Fact)))
	})
	var out bytes.Buffer
	if err := gob.NewEncoder(&out).Encode(&e); err != nil {
		return nil, fmt.Errorf("facts of %s: %v", pkg.Path(), err)
	}
	return out.Bytes(), nil
}

// register registers a's fact types with gob, as the vet protocol does, so
// that an entry can hold them.
func register(a *analysis.Analyzer) {
	for _, f := range a.FactTypes {
		gob.Register(f)
	}
}

// Unit is a unit entry read from the cache.
type Unit struct {
	e unitEntry
}

// DecodeUnit decodes a unit entry written by EncodeUnit for analyzers.
func DecodeUnit(data []byte, analyzers []*analysis.Analyzer) (*Unit, error) {
	for _, a := range analyzers {
		register(a)
	}
	u := &Unit{}
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&u.e); err != nil {
		return nil, err
	}
	return u, nil
}

// Types reads the package path from the entry's export data, into imports,
// which holds the packages read so far (those it imports among them) by
// path, and fset.
func (u *Unit) Types(fset *token.FileSet, imports map[string]*types.Package, path string) (*types.Package, error) {
	return gcexportdata.Read(bytes.NewReader(u.e.Export), fset, imports, path)
}

// AddFacts adds the facts of the entry, about pkg (whose types Types read)
// and its objects, to the fact set of each analyzer of analyzers. A fact
// about an object the export data has not brought is left out: no importer
// can reach it.
func (u *Unit) AddFacts(pkg *types.Package, sets map[*analysis.Analyzer]*passes.FactSet) {
	byName := map[string]*analysis.Analyzer{}
	for a := range sets {
		byName[a.Name] = a
	}
	for _, f := range u.e.Facts {
		a := byName[f.Analyzer]
		if a == nil {
			continue
		}
		if f.Object == "" {
			sets[a].SetPackage(pkg, f.Fact)
			continue
		}
		obj, err := objectpath.Object(pkg, f.Object)
		if err != nil {
			continue
		}
		sets[a].SetObject(obj, f.Fact)
	}
}
