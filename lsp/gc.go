package lsp

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// gcHeadroom is how far the heap of `hashalloc lsp` may grow past its live
// part before the garbage collector runs, when that is more than the
// default (GOGC=100, as far as what is live).
const gcHeadroom = 256 << 20

// tuneGC sets the garbage collector's target from the heap live after the
// last collection: what the view keeps (the packages loaded, their types and
// facts) is live from one save to the next, and a save of a large package
// allocates tens of MB more, which with the default target of a view of a
// few tens of MB started a collection on every save, a third of the save's
// CPU (BenchmarkSaveBigPackage). The heap may grow by gcHeadroom, or by what
// is live when that is more. A GOGC set in the environment is left as it
// is.
func tuneGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 || sample[0].Value.Uint64() == 0 {
		return
	}
	debug.SetGCPercent(gcPercent(sample[0].Value.Uint64()))
}

// gcPercent is the GOGC that lets a heap of live bytes grow by gcHeadroom,
// and never less than 100.
func gcPercent(live uint64) int {
	return int(max(100, 100*gcHeadroom/live))
}
