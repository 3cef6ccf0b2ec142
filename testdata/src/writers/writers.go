// Package writers holds hashers given to writer wrappers (io.MultiWriter,
// bufio, compressors, encoders): the value the wrapper returns keeps the
// hasher and writes to it through an interface, so the hasher escapes, and
// lives as long as that value. Every exported func CaseX() is measured by
// the oracle test.
package writers

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/fnv"
	"io"
)

var (
	items  = [][]byte{[]byte("alpha"), []byte("beta"), []byte("gamma")}
	out    [64]byte
	buf    bytes.Buffer
	src    = bytes.NewReader(nil)
	total  uint32
	sum64  uint64
	kept   io.Writer
	hashes []hash.Hash32
)

// An archive entry copied to its destination and checksummed on the way
// (crc32 through io.MultiWriter: 1 allocation per entry).
func CaseMultiWriter() {
	for _, it := range items {
		buf.Reset()
		crc := crc32.NewIEEE() // want `hasher-alloc: crc32.NewIEEE\(\) escapes to the heap \(written by io.MultiWriter\) once per .* \(the loop at writers.go:\d+\); automatic fix: hoist crc out of the loop and Reset it per iteration`
		w := io.MultiWriter(&buf, crc)
		w.Write(it)
		total += crc.Sum32()
	}
}

func ResultMultiWriter() string {
	total = 0
	CaseMultiWriter()
	return fmt.Sprint(total)
}

// The MultiWriter passed on to io.Copy: what becomes of the writer decides.
func CaseMultiWriterCopy() {
	for _, it := range items {
		buf.Reset()
		src.Reset(it)
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(written by io.MultiWriter\) once per .* \(the loop at writers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		io.Copy(io.MultiWriter(&buf, h), src)
		h.Sum(out[:0])
	}
}

// A bufio.Writer in front of the hasher.
func CaseBufio() {
	for _, it := range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(written by bufio.NewWriter\) once per .* \(the loop at writers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		bw := bufio.NewWriter(h)
		bw.Write(it)
		bw.Flush()
		h.Sum(out[:0])
	}
}

func ResultBufio() string {
	CaseBufio()
	return hex.EncodeToString(out[:32])
}

// A checksum of the compressed stream, per entry.
func CaseGzip() {
	for _, it := range items {
		crc := crc32.NewIEEE() // want `hasher-alloc: crc32.NewIEEE\(\) escapes to the heap \(written by gzip.NewWriter\) once per .* \(the loop at writers.go:\d+\); automatic fix: hoist crc out of the loop and Reset it per iteration`
		zw := gzip.NewWriter(crc)
		zw.Write(it)
		zw.Close()
		total += crc.Sum32()
	}
}

// A writer that returns an error too.
func CaseZlibLevel() {
	for _, it := range items {
		h := fnv.New64a() // want `hasher-alloc: fnv.New64a\(\) escapes to the heap \(written by zlib.NewWriterLevel\) once per .* \(the loop at writers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		zw, err := zlib.NewWriterLevel(h, zlib.BestSpeed)
		if err != nil {
			panic(err)
		}
		zw.Write(it)
		zw.Close()
		sum64 += h.Sum64()
	}
}

// An encoder: the writer is its second argument.
func CaseBase64() {
	for _, it := range items {
		h := sha256.New() // want `hasher-alloc: sha256.New\(\) escapes to the heap \(written by base64.NewEncoder\) once per .* \(the loop at writers.go:\d+\); automatic fix: hoist h out of the loop and Reset it per iteration`
		enc := base64.NewEncoder(base64.StdEncoding, h)
		enc.Write(it)
		enc.Close()
		h.Sum(out[:0])
	}
}

// Wrappers of wrappers.
func CaseNested() {
	for _, it := range items {
		buf.Reset()
		crc := crc32.NewIEEE() // want `hasher-alloc: crc32.NewIEEE\(\) escapes to the heap \(written by io.MultiWriter\) once per .* \(the loop at writers.go:\d+\); automatic fix: hoist crc out of the loop and Reset it per iteration`
		zw := gzip.NewWriter(io.MultiWriter(&buf, crc))
		zw.Write(it)
		zw.Close()
		total += crc.Sum32()
	}
}

// In a hot function the hasher comes from a pool, given back with defer:
// the writer holds it, and may write to it after its last use here.
//
//hashalloc:hot
func checksum(b []byte) {
	buf.Reset()
	crc := crc32.NewIEEE() // want `hasher-alloc: crc32.NewIEEE\(\) escapes to the heap \(written by io.MultiWriter\) once per call of checksum \(it is marked //hashalloc:hot\); automatic fix: take crc from a pool of crc32\.NewIEEE hashers`
	w := io.MultiWriter(&buf, crc)
	total += crc.Sum32()
	w.Write(b)
}

func CaseHotPooled() { checksum(items[0]) }

func ResultHotPooled() string {
	total = 0
	checksum(items[1])
	return fmt.Sprint(total, buf.String())
}

// ---- Negative cases. ----

// The writer is kept: so is the hasher, meant to outlive the iteration.
func CaseWriterKept() {
	hashes = hashes[:0]
	for range items {
		crc := crc32.NewIEEE()
		kept = io.MultiWriter(&buf, crc)
		hashes = append(hashes, crc)
	}
}

// A writer returned with its hasher: both outlive the call.
func checksummed(w io.Writer) (io.Writer, hash.Hash32) {
	crc := crc32.NewIEEE()
	return io.MultiWriter(w, crc), crc
}

func CaseReturned() {
	for range items {
		w, crc := checksummed(&buf)
		kept = w
		hashes = append(hashes[:0], crc)
	}
}

// The hasher built once and Reset: the floor, one allocation per call.
func CaseHoisted() {
	crc := crc32.NewIEEE()
	for _, it := range items {
		crc.Reset()
		buf.Reset()
		w := io.MultiWriter(&buf, crc)
		w.Write(it)
		total += crc.Sum32()
	}
}

// A wrapper dropped unused may go with the hasher's escape (measured: no
// allocation): the model does not decide, and says nothing. (Not a case:
// the oracle measures decided sites only.)
func droppedWriter() {
	for range items {
		h := sha256.New()
		_ = bufio.NewWriterSize(h, 16)
		h.Sum(out[:0])
	}
}

// A hasher only written and summed stays on the stack.
func CaseDirect() {
	for _, it := range items {
		crc := crc32.NewIEEE()
		crc.Write(it)
		total += crc.Sum32()
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// A log entry's checksum with a table of its own (crc32.New), written
// through io.MultiWriter beside the entry's buffer by a helper, once per
// entry that CaseWriteEntries writes.
func writeEntry(e []byte) {
	crc := crc32.New(castagnoli) // want `hasher-alloc: crc32.New\(castagnoli\) escapes to the heap \(written by io.MultiWriter\) once per call of writeEntry, which CaseWriteEntries calls once per element of items \(the loop at writers.go:\d+\); reuse a pooled hasher \(no automatic fix: no pool serves crc32.New\)`
	w := io.MultiWriter(&buf, crc)
	w.Write(e)
	total += crc.Sum32()
}

func CaseWriteEntries() {
	for _, e := range items {
		writeEntry(e)
	}
}

func ResultWriteEntries() string {
	total = 0
	CaseWriteEntries()
	return fmt.Sprint(total)
}

// The same for the log's trailer, once per log: not reported.
func writeTrailer(t []byte) {
	crc := crc32.New(castagnoli)
	w := io.MultiWriter(&buf, crc)
	w.Write(t)
	total += crc.Sum32()
}

func CaseTrailer() { writeTrailer(items[0]) }
