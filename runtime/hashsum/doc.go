// Package hashsum computes digests of the concatenation of several byte
// slices without building the concatenation and without allocating:
//
//	sum := hashsum.SHA256(header, body) // == sha256.Sum256(append(header, body...))
//
// and one-shot HMACs, for keys that change from call to call, where
// hmac.New would allocate the keyed state every time:
//
//	tag := hashsum.HMACSHA256(key, header, body) // the MAC of hmac.New(sha256.New, key) fed header and body
//
// (For a key that stays the same, a hashpool.HMAC beside it reuses the keyed
// state, which saves hashing the padded key twice per message.)
//
// Each function writes the parts into a hasher local to the call, which the
// compiler inlines, devirtualizes and keeps on the stack. The key and the
// parts are therefore not retained and do not escape: buffers on the
// caller's stack stay there. (A pooled hasher, as in package hashpool, is
// called through the hash.Hash interface, which would make every part escape
// to the heap.)
//
// The exception is AppendHMACFunc, for a hash function known only at run
// time (a func() hash.Hash): its hasher is the one the function returns,
// called through the interface, so the key and the parts escape, as they do
// with hmac.New; dst does not.
package hashsum
