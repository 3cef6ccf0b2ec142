package inlinepool

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
)

// Tag holds its key in an exported type with value receivers: a pool in
// the receiver would be a copy, so the MAC is computed with the one-shot
// HMAC that the fix declares in the file.
type Tag struct {
	key []byte
}

// Of returns the MAC of msg.
func (t Tag) Of(msg []byte) []byte {
	mac := hmac.New(sha256.New, t.key) // want `hmac-rekey: hmac.New\(sha256.New, t.key\) re-keys an HMAC \(5 allocations\) once per call of Of .*, with a key fixed for each Tag \(field key\); a keyed pool cannot be kept beside it \(t is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but Tag is exported: code outside the package may hold Tag values\); automatic fix: compute the MAC with appendHMACSHA256Valuereceivers, an RFC 2104 HMAC declared in this file \(a copy of the runtime module's hashsum.AppendHMACSHA256\), which allocates nothing, and compare the sum that Verify checks without allocating`
	mac.Write(msg)
	return mac.Sum(nil)
}

// Verify reports whether sig is msg's MAC: it compares with a form of Of
// that sums into an array on the stack.
func (t Tag) Verify(msg, sig []byte) bool {
	return hmac.Equal(t.Of(msg), sig)
}

// Reset uses the MAC for more than Write and Sum: neither rung holds.
func (t Tag) Reset(msg []byte) []byte {
	mac := hmac.New(sha256.New, t.key) // want `hmac-rekey: .* with a key fixed for each Tag \(field key\); keep a keyed HMAC pool next to the key \(no automatic fix: t is a copy, and a pool in it would not outlive the call; pointer receivers would keep it, but Tag is exported: code outside the package may hold Tag values\)`
	mac.Write(msg)
	mac.Reset()
	mac.Write(msg)
	return mac.Sum(nil)
}

// signURL writes the path and query joined: the part runs code, and stays
// where it was, in a variable.
//
//hashalloc:hot
func signURL(key string, u *url.URL) string {
	mac := hmac.New(sha256.New, []byte(key)) // want `hmac-rekey: hmac.New\(sha256.New, \[\]byte\(key\)\) re-keys an HMAC \(5 allocations\) once per call of signURL .*, with key key, which its callers pass; automatic fix: compute the MAC with appendHMACSHA256Valuereceivers, an RFC 2104 HMAC declared in this file`
	mac.Write([]byte(u.Path + "?" + u.RawQuery))
	return hex.EncodeToString(mac.Sum(nil))
}

// signURLWith writes a part whose call changes the key before the Sum.
//
//hashalloc:hot
func signURLWith(key []byte, u *url.URL) string {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: .*; compute it with a one-shot HMAC \(no automatic fix: the key is read from key, which bump\(key, u\) at valuereceivers.go:\d+ uses before the Sum\)`
	mac.Write(bump(key, u))
	return hex.EncodeToString(mac.Sum(nil))
}

func bump(key []byte, u *url.URL) []byte {
	key[0]++
	return []byte(u.Path)
}

var (
	tag     = Tag{key: []byte("tag key")}
	publish = &url.URL{Path: "/live/stream", RawQuery: "e=1700000000"}
)

func CaseTag() { tag.Of(items[0]) }

// CaseTagVerify verifies a tag: after the fixes, it allocates nothing.
func CaseTagVerify() { tag.Verify(items[0], out[:32]) }

func CaseTagReset()    { tag.Reset(items[0]) }
func CaseSignURL()     { signURL("publish key", publish) }
func CaseSignURLWith() { signURLWith([]byte("k"), publish) }

// ResultValueReceivers returns the tag, the URL's MAC and the bumped key's.
func ResultValueReceivers() string {
	good := tag.Verify(items[1], tag.Of(items[1]))
	return hex.EncodeToString(tag.Of(items[1])) + fmt.Sprint(good, tag.Verify(items[2], tag.Of(items[1]))) + " " + signURL("k", publish) + " " + signURLWith([]byte("k"), publish)
}
