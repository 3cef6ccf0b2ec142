package derivedkey

import (
	"bytes"
	"strings"
	"time"
)

// Every exported func CaseX() is measured by the oracle test, and every
// func ResultX() string must return the same before and after the fixes.

var (
	payload = bytes.Repeat([]byte("chunk data "), 8)
	day     = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	scratch = make([]byte, 64)
)

func CaseStreaming() {
	NewStreamingReader(bytes.NewReader(payload), "secret", "us-east-1", day).Read(scratch)
}

// ResultStreaming signs every chunk of the payload, each signature chained
// to the one before.
func ResultStreaming() string {
	var b strings.Builder
	r := NewStreamingReader(bytes.NewReader(payload), "secret", "us-east-1", day)
	for {
		n, err := r.Read(scratch)
		b.Write(scratch[:n])
		if err != nil || n == 0 {
			return b.String()
		}
	}
}

func CaseCached() {
	(&CachedReader{secret: "secret", region: "us-east-1", date: day, r: bytes.NewReader(payload)}).Read(scratch)
}

func CaseRotating() {
	(&RotatingReader{secret: "secret", region: "us-east-1", date: day, r: bytes.NewReader(payload)}).Read(scratch)
}

func CaseAddr() { NewAddrReader(bytes.NewReader(payload)).Read(scratch) }

func CaseReset() {
	var z ResetReader
	z.Reset(bytes.NewReader(payload), "secret")
	z.Read(scratch)
}

func CaseExported() {
	(&ExportedReader{Secret: "secret", region: "us-east-1", date: day, r: bytes.NewReader(payload)}).Read(scratch)
}

func CaseRegion() {
	(&RegionReader{secret: "secret", region: "us-east-1", regions: []string{"eu-west-1"}, date: day, r: bytes.NewReader(payload)}).Read(scratch)
}

func CaseScoped() {
	(&ScopedReader{secret: "secret", region: "us-east-1", r: bytes.NewReader(payload)}).Read(scratch)
}

func CaseFresh() {
	(&FreshReader{secrets: []string{"a", "b"}, date: day, r: bytes.NewReader(payload)}).Read(scratch)
}

func CaseDated() {
	(&DatedReader{secret: "secret", date: day, r: bytes.NewReader(payload)}).Read(scratch)
}
