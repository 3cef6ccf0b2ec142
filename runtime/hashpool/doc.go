// Package hashpool provides pools of reusable hashers, so that code hashing
// many messages does not allocate a new hasher for each one (or, for HMAC,
// rebuild the keyed state for each one).
//
// A hasher is taken with Get, used, and given back with Put:
//
//	h := hashpool.SHA256.Get()
//	h.Write(data)
//	buf = h.Sum(buf[:0])
//	hashpool.SHA256.Put(h)
//
// Code that hashes with a crypto.Hash it is given takes the pool of that
// hash with ForHash, which does not allocate:
//
//	h := hashpool.ForHash(t.hash).Get()
//	defer hashpool.ForHash(t.hash).Put(h)
//
// An HMAC pool is a plain field beside the key it serves. Its zero value is
// ready, and every Get names the hash and the key, which the pool checks (in
// constant time), re-keying when they changed:
//
//	type Signer struct {
//		key  []byte
//		macs hashpool.HMAC
//	}
//
//	func (s *Signer) Sign(dst, msg []byte) []byte {
//		mac := s.macs.Get(sha256.New, s.key)
//		defer s.macs.Put(mac)
//		mac.Write(msg)
//		return mac.Sum(dst)
//	}
//
// To verify a MAC, MAC.Equal compares in constant time without allocating
// (hmac.Equal(mac.Sum(nil), tag) allocates the sum):
//
//	func (s *Signer) Verify(tag, msg []byte) bool {
//		mac := s.macs.Get(sha256.New, s.key)
//		defer s.macs.Put(mac)
//		mac.Write(msg)
//		return mac.Equal(tag)
//	}
//
// Buffers, the buffer pool (a BufferPool), lends scratch byte buffers, for
// code that makes one per call and hands it to an interface (which makes it
// escape):
//
//	buf := hashpool.Buffers.Get(64) // like make([]byte, 64)
//	defer hashpool.Buffers.Put(buf)
//
// It pays from 64 bytes: for a smaller buffer, Get and Put cost more time
// than the allocation they save (BenchmarkBufferPool), and a buffer kept
// beyond the call, such as an array in a field, is the way to reuse it.
//
// # Misuse
//
// A hasher must be put back at most once, and must not be used after it has
// been put back: another goroutine may already have taken it. Either mistake
// makes two users share one hasher, which corrupts both results and can pass
// one user's data into another user's sum. Put a hasher only into the pool it
// came from; a hasher of another kind would give wrong sums to later users.
// An HMAC pool checks this itself: its Put drops a MAC made by another pool or
// for another key or hash function.
//
// # Escapes
//
// Pooled hashers are called through the hash.Hash interface, so the slices
// written to them and the buffers passed to Sum escape to the heap. Keep them
// in buffers that are allocated once, or, to hash data held on the stack,
// use package hashsum instead.
package hashpool
