package hmaconce

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
)

var errDigest = errors.New("digest not valid")

// A temporary URL's signature (gophercloud's CreateTempURL): the digest
// chooses the MAC's hash in a switch, with a key computed per call, and the
// MAC is written and summed after it. The variable keeps the crypto.Hash each
// case chooses, and the one-shot HMAC dispatches on it.
func tempURLSig(digest, tempURLKey, method, path string, expiry int64) (string, error) {
	secretKey := []byte(tempURLKey)
	body := fmt.Sprintf("%s\n%d\n%s", method, expiry, path)
	var hash hash.Hash
	switch digest {
	case "", "sha1":
		hash = hmac.New(sha1.New, secretKey) // want `hmac-rekey: hmac.New\(sha1.New, secretKey\) re-keys an HMAC \(5 allocations\) once per call of tempURLSig.*, with a key read or computed per call \(secretKey\); hash holds hmac.New\(sha1.New, secretKey\), hmac.New\(sha256.New, secretKey\) or hmac.New\(sha512.New, secretKey\), chosen by the switch at branches.go:\d+: one finding for its 3 constructors; automatic fix: compute the MAC with hashsum\.AppendHMAC, which allocates nothing; hash holds the crypto\.Hash that each branch chooses`
	case "sha256":
		hash = hmac.New(sha256.New, secretKey)
	case "sha512":
		hash = hmac.New(sha512.New, secretKey)
	default:
		return "", errDigest
	}
	hash.Write([]byte(body))
	hexsum := fmt.Sprintf("%x", hash.Sum(nil))
	return fmt.Sprintf("%s?temp_url_sig=%s&temp_url_expires=%d", path, hexsum, expiry), nil
}

var digests = []string{"", "sha1", "sha256", "sha512", "md4"}

func CaseTempURL() {
	for _, d := range digests {
		tempURLSig(d, "secret", "GET", "/v1/a/c/o", 1700000000)
	}
}

func ResultTempURL() string {
	all := ""
	for _, d := range digests {
		s, err := tempURLSig(d, "secret", "GET", "/v1/a/c/o", 1700000000)
		all += s + fmt.Sprint(err)
	}
	long := string(make([]byte, 200)) // longer than a block: hashed first
	s, _ := tempURLSig("sha512", long, "PUT", "/v1/a/c/o", 1)
	return all + s
}

// ---- Its negative twins: what a branch may do that blocks the fix. ----

// No default: when no case runs, mac is nil (and Write panics); a
// crypto.Hash would not be.
func signNoDefault(digest string, key, msg []byte) []byte {
	var mac hash.Hash
	switch digest {
	case "sha1":
		mac = hmac.New(sha1.New, key) // want `hmac-rekey: hmac.New\(sha1.New, key\) .*; mac holds hmac.New\(sha1.New, key\) or hmac.New\(sha256.New, key\), chosen by the switch at branches.go:\d+: one finding for its 2 constructors; compute it with a one-shot HMAC \(no automatic fix: mac is assigned in more than one place: which hasher it holds depends on the branch taken, and the switch at branches.go:\d+ has no default: when none of its branches runs, mac is nil\)`
	case "sha256":
		mac = hmac.New(sha256.New, key)
	}
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// A key of its own in each branch.
func signTwoKeys(v2 bool, key, key2, msg []byte) []byte {
	var mac hash.Hash
	if v2 {
		mac = hmac.New(sha256.New, key2) // want `hmac-rekey: hmac.New\(sha256.New, key2\) .*; mac holds hmac.New\(sha256.New, key2\) or hmac.New\(sha1.New, key\), chosen by the if at branches.go:\d+: one finding for its 2 constructors.*\(no automatic fix: mac is assigned in more than one place: which hasher it holds depends on the branch taken, and hmac.New\(sha1.New, key\) at branches.go:\d+ is given another key than key2\)`
	} else {
		mac = hmac.New(sha1.New, key)
	}
	mac.Write(msg)
	return mac.Sum(out[:0])
}

// A branch left by break before it assigns the MAC.
func signBreak(digest string, short bool, key, msg []byte) []byte {
	mac := hmac.New(sha1.New, key) // want `hmac-rekey: hmac.New\(sha1.New, key\) .*; mac holds hmac.New\(sha1.New, key\) or hmac.New\(sha256.New, key\), chosen by the switch at branches.go:\d+: one finding for its 2 constructors.*\(no automatic fix: mac is assigned in more than one place: which hasher it holds depends on the branch taken, and break at branches.go:\d+ may leave a branch before it assigns it\)`
	switch digest {
	case "sha256":
		if short {
			break
		}
		mac = hmac.New(sha256.New, key)
	}
	mac.Write(msg)
	return mac.Sum(out[:0])
}

func CaseBranchesRefused() {
	for _, k := range keys {
		signNoDefault("sha1", k, keys[0])
		signTwoKeys(true, k, keys[1], keys[0])
		signBreak("sha256", false, k, keys[0])
	}
}

func ResultBranchesRefused() string {
	a := hex.EncodeToString(signNoDefault("sha256", keys[0], keys[1]))
	b := hex.EncodeToString(signTwoKeys(false, keys[0], keys[1], keys[2]))
	c := hex.EncodeToString(signBreak("sha256", true, keys[0], keys[1]))
	return a + b + c
}
