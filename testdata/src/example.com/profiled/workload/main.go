// Command workload runs profiled.HashHot for a while (a time and a number of
// runs, whichever is longer) and profiled.HashCold
// once, and writes a CPU profile and an allocation profile of the run.
package main

import (
	"flag"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"example.com/profiled"
)

func main() {
	cpu := flag.String("cpuprofile", "", "write a CPU profile to this file")
	mem := flag.String("memprofile", "", "write an allocation profile to this file")
	d := flag.Duration("d", 300*time.Millisecond, "how long to run HashHot, at least")
	min := flag.Int("n", 500, "how many times to run HashHot, at least: on a loaded machine the time alone may leave the profiler's own allocations the larger share")
	flag.Parse()
	runtime.MemProfileRate = 1 // every allocation: the shares are exact

	f, err := os.Create(*cpu)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	tree := profiled.Tree(8, []byte("a leaf of the tree"))
	n := 0
	for start := time.Now(); n < *min || time.Since(start) < *d; n++ {
		profiled.HashHot(tree)
	}
	profiled.HashCold(profiled.Tree(1, []byte("once")))
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}

	runtime.GC() // the allocation profile is as of the last collection
	m, err := os.Create(*mem)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.Lookup("allocs").WriteTo(m, 0); err != nil {
		log.Fatal(err)
	}
	if err := m.Close(); err != nil {
		log.Fatal(err)
	}
	log.Printf("HashHot ran %d times", n)
}
