// A replica for the real-world corpus of hashalloc, written for it: the shape
// that avalanchego's x/merkledb hashChangedNode had before pull request #2902
// ("Reuse key buffers during hashing", seed 002), against the types and
// helpers of v1.11.4, the nearest version the module proxy serves (no version
// has the code before the pull request). Written anew with the real code's
// shape (commit 5be62de): the key buffer declared in a var block with the
// node's other per-call values, filled through extendIntoBuffer, and looked
// up through key structs held in local variables (childKey := Key{value:
// byteSliceToString(buffer)}; v.changes.nodes[childKey]). Each call makes
// the buffer of its children's keys itself, per node hashed; hashChangedNodes uses the pool of
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
	// The longest child key: one buffer holds every child's key.
	var longestChild int
	for _, c := range n.children {
		longestChild = max(longestChild, c.compressedKey.length)
	}

	// The node's per-call values, in one var block, as the code before the
	// pull request declared them.
	var (
		maxBytesNeeded = bytesNeeded(n.key.length + v.tokenSize + longestChild)
		keyBuffer      = make([]byte, maxBytesNeeded)
		tokenBuffer    = make([]byte, 1)
		shift          = dualBitIndex(v.tokenSize)
		prefixBytes    = bytesNeeded(n.key.length)
		// A child's index may OR into the last byte of the node's key.
		last byte
		wg   waitGroup
	)
	if prefixBytes > 0 {
		copy(keyBuffer, n.key.value)
		last = keyBuffer[prefixBytes-1]
	}

	for index, c := range n.children {
		tokenBuffer[0] = index << shift
		tokenKey := Key{value: byteSliceToString(tokenBuffer), length: v.tokenSize}
		bits := n.key.length + v.tokenSize + c.compressedKey.length
		buffer := keyBuffer[:bytesNeeded(bits)]
		if prefixBytes > 0 {
			buffer[prefixBytes-1] = last
		}
		extendIntoBuffer(buffer, tokenKey, n.key.length)
		extendIntoBuffer(buffer, c.compressedKey, n.key.length+v.tokenSize)
		childKey := Key{value: byteSliceToString(buffer), length: bits}

		change, ok := v.changes.nodes[childKey]
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
