// A benchmark written for hashalloc's real-world corpus (seed 002, the
// avalanchego x/merkledb case), copied into x/merkledb by the corpus runner.
//
// It measures what the module's Benchmark_HashChangedNodes measures, at
// n=1000, with 48-byte keys instead of that benchmark's 1- to 2-byte varints:
// since Go 1.25 a variable-size make of up to 32 bytes that does not escape
// is on the stack, so with short keys the per-call key buffer of the naive
// hashChangedNode costs nothing and the allocations of the seed's pull
// request (293 allocs/op at n=1000 under Go 1.21) no longer show. With keys
// longer than 32 bytes each key buffer is made on the heap again, once per
// changed node with children.

package merkledb

import (
	"context"
	"crypto/sha512"
	"encoding/binary"
	"strconv"
	"testing"

	"github.com/ava-labs/avalanchego/database"
	"github.com/ava-labs/avalanchego/database/memdb"
)

func BenchmarkSeedHashChangedNodes48(b *testing.B) {
	for _, n := range []int{1000} {
		v := seedView48(b, n)
		ctx := context.Background()
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				v.hashChangedNodes(ctx)
			}
		})
	}
}

// seedView48 returns a view of n keys of 48 pseudo-random bytes (SHA-384 of
// the key's index), with its node changes calculated, hashed by one
// goroutine.
func seedView48(b *testing.B, n int) *view {
	config := newDefaultConfig()
	config.RootGenConcurrency = 1
	db, err := newDatabase(context.Background(), memdb.New(), config, &mockMetrics{})
	if err != nil {
		b.Fatal(err)
	}
	ops := make([]database.BatchOp, 0, n)
	for i := 0; i < n; i++ {
		key := sha512.Sum384(binary.AppendUvarint(nil, uint64(i)))
		ops = append(ops, database.BatchOp{Key: key[:], Value: key[:8]})
	}
	ctx := context.Background()
	vi, err := db.NewView(ctx, ViewChanges{BatchOps: ops})
	if err != nil {
		b.Fatal(err)
	}
	v := vi.(*view)
	if err := v.calculateNodeChanges(ctx); err != nil {
		b.Fatal(err)
	}
	return v
}
