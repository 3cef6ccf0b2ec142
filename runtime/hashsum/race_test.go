//go:build race

package hashsum_test

// raceEnabled reports whether the race detector is on. It makes sync.Pool
// drop a random quarter of the values put into it, so a pool cannot be
// allocation-free then.
const raceEnabled = true
