package inlinepool

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
)

// Hash functions whose one value the package shows, in -pool=inline: the
// fix declares the one-shot HMAC of that constructor, and drops the import
// of hash that only the function literals used.

//hashalloc:hot
func macLiteral(key, msg []byte) []byte {
	mac := hmac.New(func() hash.Hash { return sha256.New() }, key) // want `hmac-rekey: hmac.New\(\(func\(\) hash.Hash literal\), key\) re-keys .*; automatic fix: compute the MAC with appendHMACSHA256Funcvalues, an RFC 2104 HMAC declared in this file \(a copy of the runtime module's hashsum\.AppendHMACSHA256\), which allocates nothing`
	mac.Write(msg)
	return mac.Sum(nil)
}

//hashalloc:hot
func macLocal(key, msg []byte) []byte {
	var newHash = func() hash.Hash { return sha256.New() }
	mac := hmac.New(newHash, key) // want `hmac-rekey: hmac.New\(newHash, key\) re-keys .*; automatic fix: compute the MAC with appendHMACSHA256Funcvalues, an RFC 2104 HMAC declared in this file \(a copy of the runtime module's hashsum\.AppendHMACSHA256\), which allocates nothing`
	mac.Write(msg)
	return mac.Sum(nil)
}

func CaseMacLiteral() { macLiteral(items[0], items[1]) }
func CaseMacLocal()   { macLocal(items[0], items[1]) }

func ResultFuncValues() string {
	long := make([]byte, 200) // longer than a block: hashed first
	return string(macLiteral(long, items[1])) + string(macLocal(items[2], items[1]))
}
