// A replica for the real-world corpus of hashalloc, written for it: the shape
// that avalanchego's x/merkledb hashChangedNode had before pull request #2902
// ("Reuse key buffers during hashing", seed 002), against the types and
// helpers of v1.11.4, the nearest version the module proxy serves (no version
// has the code before the pull request). Each call makes the buffer of its
// children's keys itself, per node hashed; hashChangedNodes uses the pool of
// v1.11.4 only to limit the goroutines, as the semaphore of the time did.
// The corpus runner puts these two functions in place of v1.11.4's in
// x/merkledb/view.go, where the module's own tests pass with them.

package merkledb

import (
	"context"
	"sync"

	"github.com/ava-labs/avalanchego/ids"
)

func (v *view) hashChangedNodes(ctx context.Context) {
	_, span := v.db.infoTracer.Start(ctx, "MerkleDB.view.hashChangedNodes")
	defer span.End()

	if v.root.IsNothing() {
		v.changes.rootID = ids.Empty
		return
	}
	_ = v.db.hashNodesKeyPool.Acquire()
	defer v.db.hashNodesKeyPool.Release(nil)
	v.changes.rootID = v.hashChangedNode(v.root.Value())
}

func (v *view) hashChangedNode(n *node) ids.ID {
	if len(n.children) == 0 {
		return n.calculateID(v.db.metrics)
	}
	longest := 0
	for _, c := range n.children {
		longest = max(longest, c.compressedKey.length)
	}
	keyBuffer := make([]byte, bytesNeeded(n.key.length+v.tokenSize+longest))
	copy(keyBuffer, n.key.value)
	// The last byte of the node's key, which a child's index may OR into.
	prefixBytes := bytesNeeded(n.key.length)
	var last byte
	if prefixBytes > 0 {
		last = keyBuffer[prefixBytes-1]
	}
	token := make([]byte, 1)
	shift := dualBitIndex(v.tokenSize)

	var wg waitGroup
	for index, c := range n.children {
		token[0] = index << shift
		bits := n.key.length + v.tokenSize + c.compressedKey.length
		key := keyBuffer[:bytesNeeded(bits)]
		if prefixBytes > 0 {
			key[prefixBytes-1] = last
		}
		extendIntoBuffer(key, Key{value: byteSliceToString(token), length: v.tokenSize}, n.key.length)
		extendIntoBuffer(key, c.compressedKey, n.key.length+v.tokenSize)
		change, ok := v.changes.nodes[Key{value: byteSliceToString(key), length: bits}]
		if !ok {
			continue // an unchanged child
		}
		c.hasValue = change.after.hasValue()
		if _, ok := v.db.hashNodesKeyPool.TryAcquire(); ok {
			wg.Add(1)
			go func(wg *sync.WaitGroup, c *child, after *node) {
				c.id = v.hashChangedNode(after)
				v.db.hashNodesKeyPool.Release(nil)
				wg.Done()
			}(wg.wg, c, change.after)
		} else {
			c.id = v.hashChangedNode(change.after)
		}
	}
	wg.Wait()
	return n.calculateID(v.db.metrics)
}
