// Package helperloop holds helpers that make a MAC from a key parameter,
// write it and return one Sum, called in loops: where the loop gives them the
// same key on every iteration, the fix keeps one MAC across the loop; beside
// each, a twin where it cannot.
package helperloop

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"hash"
)

var items = [][]byte{[]byte("alpha"), []byte("bravo"), []byte("charlie")}

// ---- A SCRAM formatter (sarama's): the helper's MAC is chosen by its
// receiver's mechanism, in a wrapper that may fail. ----

type scram struct{ mechanism int }

var errMechanism = errors.New("unknown mechanism")

func (s scram) mac(key []byte) (hash.Hash, error) {
	var m hash.Hash
	switch s.mechanism {
	case 256:
		m = hmac.New(sha256.New, key)
	case 512:
		m = hmac.New(sha512.New, key)
	default:
		return nil, errMechanism
	}
	return m, nil
}

// hmac MACs extra once with a MAC of mac's, and drops it.
func (s scram) hmac(key, extra []byte) ([]byte, error) {
	mac, err := s.mac(key) // want `hmac-rekey: s.mac\(key\) re-keys an HMAC \(5 allocations: scram.mac returns the HMAC of hmac.New\) once per call of hmac, which saltedPassword calls once per iteration \(the loop at helperloop.go:\d+\), with a key that the loop does not change; automatic fix: keep one MAC across the loop in passwordMAC, which hmac makes on the first call and Resets on the next ones`
	if err != nil {
		return nil, err
	}

	if _, err := mac.Write(extra); err != nil {
		return nil, err
	}
	return mac.Sum(nil), nil
}

// saltedPassword is PBKDF2 written by hand: one HMAC per iteration, keyed
// with the password.
func (s scram) saltedPassword(password, salt []byte, iterations int) ([]byte, error) {
	result := append(append([]byte(nil), salt...), 0, 0, 0, 1)
	prev := result
	for i := 2; i <= iterations; i++ {
		ui, err := s.hmac(password, prev)
		if err != nil {
			return nil, err
		}
		for j := range min(len(result), len(ui)) {
			result[j] ^= ui[j]
		}
		prev = ui
	}
	return result, nil
}

var salted []byte

func CaseSaltedPassword() {
	salted, _ = scram{mechanism: 256}.saltedPassword([]byte("pencil"), []byte("salt"), 16)
}

// Both hashes, an unknown mechanism (its error at the first iteration) and
// a loop that does not run.
func ResultSaltedPassword() string {
	a, _ := scram{mechanism: 256}.saltedPassword([]byte("pencil"), []byte("salt"), 16)
	b, _ := scram{mechanism: 512}.saltedPassword([]byte("pencil"), []byte("salt"), 16)
	c, _ := scram{mechanism: 512}.saltedPassword([]byte("pencil"), []byte("salt"), 1)
	_, err := scram{mechanism: 1}.saltedPassword([]byte("pencil"), []byte("salt"), 16)
	return hex.EncodeToString(a) + hex.EncodeToString(b) + hex.EncodeToString(c) + err.Error()
}

// The twin: the loop changes the mechanism, and with it the MAC that mac
// chooses.
type rotating struct{ mechanism int }

func (r rotating) mac(key []byte) (hash.Hash, error) {
	switch r.mechanism {
	case 256:
		return hmac.New(sha256.New, key), nil
	case 512:
		return hmac.New(sha512.New, key), nil
	}
	return nil, errMechanism
}

func (r rotating) hmac(key, extra []byte) ([]byte, error) {
	mac, err := r.mac(key) // want `hmac-rekey: r.mac\(key\) re-keys an HMAC .* once per call of hmac, which alternate calls once per iteration .*; build the MAC once where its key is fixed and Reset it per use, or compute a one-shot HMAC of the hash rotating.mac chooses \(no automatic fix: the loop may change the receiver r \(at helperloop.go:\d+\)\)`
	if err != nil {
		return nil, err
	}
	mac.Write(extra)
	return mac.Sum(nil), nil
}

func alternate(password []byte, iterations int) []byte {
	r := rotating{mechanism: 256}
	var out []byte
	for i := 0; i < iterations; i++ {
		ui, _ := r.hmac(password, out)
		out = append(out[:0], ui...)
		r.mechanism ^= 256 ^ 512
	}
	return out
}

var alternated []byte

func CaseAlternate() { alternated = alternate([]byte("pencil"), 8) }

// The twin: the key changes from one iteration to the next.
func chained(seed []byte, iterations int) ([]byte, error) {
	s := scram{mechanism: 512}
	key := seed
	for i := 0; i < iterations; i++ {
		next, err := s.chainLink(key, seed)
		if err != nil {
			return nil, err
		}
		key = next
	}
	return key, nil
}

func (s scram) chainLink(key, extra []byte) ([]byte, error) {
	mac, err := s.mac(key) // want `hmac-rekey: s.mac\(key\) re-keys an HMAC .* once per call of chainLink, which chained calls once per iteration .*\(no automatic fix: the loop may change key, and chainLink makes its MAC from it\)`
	if err != nil {
		return nil, err
	}
	mac.Write(extra)
	return mac.Sum(nil), nil
}

var chain []byte

func CaseChained() { chain, _ = chained([]byte("seed"), 8) }

// ---- A plain constructor in the helper. ----

// sign MACs msg with key.
func sign(key, msg []byte) []byte {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of sign, which signAll calls once per element of msgs \(the loop at helperloop.go:\d+\), with a key that the loop does not change; automatic fix: keep one MAC across the loop in keyMAC, which sign makes on the first call and Resets on the next ones`
	mac.Write(msg)
	return mac.Sum(nil)
}

func signAll(key []byte, msgs [][]byte) [][]byte {
	sigs := make([][]byte, 0, len(msgs))
	for _, m := range msgs {
		sigs = append(sigs, sign(key, m))
	}
	return sigs
}

var sigs [][]byte

func CaseSignAll() { sigs = signAll([]byte("key"), items) }

func ResultSignAll() string {
	var out string
	for _, s := range signAll([]byte("key"), items) {
		out += hex.EncodeToString(s)
	}
	return out + hex.EncodeToString(sign2([]byte("key"), []byte("once")))
}

// The twin: the helper keeps the MAC it makes, so each call's MAC
// outlives it.
type signer struct{ last hash.Hash }

func (s *signer) sign(key, msg []byte) []byte {
	mac := hmac.New(sha256.New, key)
	s.last = mac
	mac.Write(msg)
	return mac.Sum(nil)
}

var kept signer

func CaseKept() {
	for _, it := range items {
		sigs = append(sigs[:0], kept.sign([]byte("key"), it))
	}
}

// The twin: the helper reads the MAC's size besides writing it and summing
// it.
func signSized(key, msg []byte) []byte {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of signSized, .*`
	buf := make([]byte, 0, mac.Size())
	mac.Write(msg)
	return mac.Sum(buf)
}

func CaseSignSized() {
	for _, it := range items {
		sigs = append(sigs[:0], signSized([]byte("key"), it))
	}
}

// The twin: the helper is called outside the loop too.
func sign2(key, msg []byte) []byte {
	mac := hmac.New(sha256.New, key) // want `hmac-rekey: hmac.New\(sha256.New, key\) re-keys an HMAC \(5 allocations\) once per call of sign2, .*`
	mac.Write(msg)
	return mac.Sum(nil)
}

func CaseSign2() {
	for _, it := range items {
		sigs = append(sigs[:0], sign2([]byte("key"), it))
	}
	sigs = append(sigs, sign2([]byte("other"), nil))
}

// The twin: the package's tests call the helper too, and would not compile
// with a parameter added to it.
func (s scram) digest(key, msg []byte) ([]byte, error) {
	mac, err := s.mac(key) // want `hmac-rekey: s.mac\(key\) re-keys an HMAC .* once per call of digest, which digestAll calls once per element of msgs .*\(no automatic fix: digest is called in helperloop_test.go:\d+ too, where no loop keeps its MAC\)`
	if err != nil {
		return nil, err
	}
	mac.Write(msg)
	return mac.Sum(nil), nil
}

func digestAll(key []byte, msgs [][]byte) [][]byte {
	s := scram{mechanism: 512}
	var out [][]byte
	for _, m := range msgs {
		d, _ := s.digest(key, m)
		out = append(out, d)
	}
	return out
}

func CaseDigestAll() { sigs = digestAll([]byte("key"), items) }

// The twin: the loop that calls the helper is in another file, and a fix
// keeps its edits in one file.
func (s scram) stamp(key, msg []byte) ([]byte, error) {
	mac, err := s.mac(key) // want `hmac-rekey: s.mac\(key\) re-keys an HMAC .* once per call of stamp, which stampAll calls once per element of msgs .*\(no automatic fix: stamp is declared in helperloop.go and called in the loop in another file, and a fix keeps its edits in one file\)`
	if err != nil {
		return nil, err
	}
	mac.Write(msg)
	return mac.Sum(nil), nil
}
