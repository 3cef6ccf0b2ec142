package hashpool_test

import (
	"bytes"
	"crypto"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

// hmacHash is a hash function as Get takes it and as GetHash names it.
type hmacHash struct {
	name    string
	newHash func() hash.Hash
	ch      crypto.Hash
}

// hmacHashes are the hashes the HMAC tests use (SHA3-256 is added by
// pool_sha3_test.go).
var hmacHashes = []hmacHash{
	{"SHA256", sha256.New, crypto.SHA256},
	{"SHA224", sha256.New224, crypto.SHA224},
	{"SHA512", sha512.New, crypto.SHA512},
	{"SHA384", sha512.New384, crypto.SHA384},
	{"SHA512_224", sha512.New512_224, crypto.SHA512_224},
	{"SHA512_256", sha512.New512_256, crypto.SHA512_256},
	{"SHA1", sha1.New, crypto.SHA1},
	{"MD5", md5.New, crypto.MD5},
}

// macOf returns the MAC of the concatenation of parts by m, which it puts
// back into p.
func macOf(p *hashpool.HMAC, m *hashpool.MAC, parts ...[]byte) []byte {
	defer p.Put(m)
	for _, b := range parts {
		m.Write(b)
	}
	return m.Sum(nil)
}

// checkMAC checks that Get, and GetHash when ch is not 0, give exactly
// crypto/hmac's MAC for newHash and key.
func checkMAC(t *testing.T, p *hashpool.HMAC, h hmacHash, key []byte, parts ...[]byte) {
	t.Helper()
	want := hmacSum(h.newHash, key, parts...)
	if got := macOf(p, p.Get(h.newHash, key), parts...); !bytes.Equal(got, want) {
		t.Fatalf("Get(%s, %q): MAC %x, want %x", h.name, key, got, want)
	}
	if got := macOf(p, p.GetHash(h.ch, key), parts...); !bytes.Equal(got, want) {
		t.Fatalf("GetHash(%s, %q): MAC %x, want %x", h.name, key, got, want)
	}
	checkEqual(t, p, h, key, want, parts...)
}

// checkEqual checks that MAC.Equal agrees with hmac.Equal(m.Sum(nil), mac)
// for the right MAC want, for MACs that differ from it in one byte or in
// length, and that it leaves the MAC's state as it was.
func checkEqual(t *testing.T, p *hashpool.HMAC, h hmacHash, key, want []byte, parts ...[]byte) {
	t.Helper()
	m := p.Get(h.newHash, key)
	defer p.Put(m)
	for _, b := range parts {
		m.Write(b)
	}
	candidates := [][]byte{want, nil, {}, want[:len(want)-1], append(bytes.Clone(want), 0)}
	for i := range want {
		flipped := bytes.Clone(want)
		flipped[i] ^= 1 << (i % 8)
		candidates = append(candidates, flipped)
	}
	for _, mac := range candidates {
		if got, exp := m.Equal(mac), hmac.Equal(want, mac); got != exp {
			t.Fatalf("Get(%s, %q).Equal(%x) = %v, want %v (the MAC is %x)", h.name, key, mac, got, exp, want)
		}
	}
	// Equal neither changes the state nor consumes the data written.
	if got := m.Sum(nil); !bytes.Equal(got, want) {
		t.Fatalf("Get(%s, %q): Sum after Equal is %x, want %x", h.name, key, got, want)
	}
	m.Write([]byte("more"))
	if !m.Equal(hmacSum(h.newHash, key, append(parts, []byte("more"))...)) {
		t.Fatalf("Get(%s, %q): Equal after more data is false", h.name, key)
	}
}

func TestHMACZeroValue(t *testing.T) {
	var p hashpool.HMAC
	key := []byte("key")
	m := p.Get(sha256.New, key)
	m.Write([]byte("msg"))
	if got, want := m.Sum(nil), hmacSum(sha256.New, key, []byte("msg")); !bytes.Equal(got, want) {
		t.Fatalf("zero HMAC: MAC %x, want %x", got, want)
	}
	p.Put(m)

	var q hashpool.HMAC
	if got, want := macOf(&q, q.GetHash(crypto.SHA512, key), []byte("msg")), hmacSum(sha512.New, key, []byte("msg")); !bytes.Equal(got, want) {
		t.Fatalf("zero HMAC, GetHash: MAC %x, want %x", got, want)
	}
}

// signer holds its key and, beside it, the pool of MACs for that key, as the
// analyzer's fix writes it: a plain field, no constructor.
type signer struct {
	key  []byte
	macs hashpool.HMAC
}

func (s *signer) sign(msg []byte) []byte {
	mac := s.macs.Get(sha256.New, s.key)
	defer s.macs.Put(mac)
	mac.Write(msg)
	return mac.Sum(nil)
}

// valueSign is sign with a value receiver: it works on a copy of s.
func (s signer) valueSign(msg []byte) []byte {
	mac := s.macs.Get(sha256.New, s.key)
	defer s.macs.Put(mac)
	mac.Write(msg)
	return mac.Sum(nil)
}

// pkgSigner is a zero-valued package variable.
var pkgSigner signer

// TestHMACFieldZeroValue checks that an HMAC field works however its struct
// was made: by a literal that does not mention it, by new, or as a package
// variable.
func TestHMACFieldZeroValue(t *testing.T) {
	key := []byte("a key")
	msg := []byte("a message")
	want := hmacSum(sha256.New, key, msg)

	literal := &signer{key: key}
	made := new(signer)
	made.key = key
	pkgSigner.key = key
	defer func() { pkgSigner = signer{} }()
	var local signer
	local.key = key
	for name, s := range map[string]*signer{"literal": literal, "new": made, "package variable": &pkgSigner, "local variable": &local} {
		for i := 0; i < 3; i++ {
			if got := s.sign(msg); !bytes.Equal(got, want) {
				t.Fatalf("%s, round %d: MAC %x, want %x", name, i, got, want)
			}
		}
	}
}

// TestHMACGetIsKeyedAndReset checks that a MAC put back with data of one user
// (with or without Sum) comes out of Get in the keyed, reset state.
func TestHMACGetIsKeyedAndReset(t *testing.T) {
	var p hashpool.HMAC
	key := []byte("key")
	want := hmacSum(sha256.New, key, []byte("msg"))
	for i := 0; i < 10; i++ {
		m := p.Get(sha256.New, key)
		m.Write([]byte("msg"))
		if got := m.Sum(nil); !bytes.Equal(got, want) {
			t.Fatalf("round %d: got %x, want %x", i, got, want)
		}
		m.Write([]byte("secret data of the previous user"))
		if i%2 == 0 {
			m.Sum(nil)
		}
		p.Put(m)
	}
}

// TestHMACReuse checks that the pool does reuse its MACs when the key and the
// hash function stay the same, for each way of naming the hash function that
// is meant to be stable: a top-level function (one static func value, even
// when taken in another package than hashpool), a func literal that captures
// nothing, a func value made once, and a crypto.Hash.
func TestHMACReuse(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values at random")
	}
	madeOnce := crypto.SHA256.New
	for _, tc := range []struct {
		name string
		get  func(p *hashpool.HMAC, key []byte) *hashpool.MAC
	}{
		{"sha256.New", func(p *hashpool.HMAC, key []byte) *hashpool.MAC {
			return p.Get(sha256.New, key)
		}},
		{"func literal", func(p *hashpool.HMAC, key []byte) *hashpool.MAC {
			return p.Get(func() hash.Hash { return sha256.New() }, key)
		}},
		{"func value", func(p *hashpool.HMAC, key []byte) *hashpool.MAC {
			return p.Get(madeOnce, key)
		}},
		{"crypto.SHA256", func(p *hashpool.HMAC, key []byte) *hashpool.MAC {
			return p.GetHash(crypto.SHA256, key)
		}},
		{"another slice with the same key", func(p *hashpool.HMAC, key []byte) *hashpool.MAC {
			return p.Get(sha256.New, bytes.Clone(key))
		}},
	} {
		var p hashpool.HMAC
		key := []byte("key")
		first := tc.get(&p, key)
		p.Put(first)
		if again := tc.get(&p, key); again != first {
			t.Errorf("%s: Get after Put made a new MAC instead of reusing the pooled one", tc.name)
		}
	}
}

// TestHMACKeyRotation checks that a pool re-keys whenever the caller's key
// changes, and never answers with an older key.
func TestHMACKeyRotation(t *testing.T) {
	h := hmacHashes[0]
	keys := [][]byte{
		[]byte("key one"),
		[]byte("key two"),
		[]byte("key one"),       // back to the first key
		[]byte("key on"),        // a prefix
		[]byte("key one and a"), // an extension
		[]byte("key onf"),       // the last byte differs
		nil,
		[]byte{},
		bytes.Repeat([]byte("k"), 200), // longer than a block: hashed first
		bytes.Repeat([]byte("k"), 201),
	}
	var p hashpool.HMAC
	for round := 0; round < 3; round++ {
		for _, key := range keys {
			checkMAC(t, &p, h, key, []byte("msg"))
			checkMAC(t, &p, h, key, []byte("another msg"))
		}
	}
}

// TestHMACKeyChangedInPlace checks that the pool compares the contents of the
// key, not the slice: a key changed in place by the caller after Get gives
// the new key's MAC on the next Get.
func TestHMACKeyChangedInPlace(t *testing.T) {
	var p hashpool.HMAC
	key := []byte("a key changed in place")
	msg := []byte("msg")
	for i := 0; i < 2*len(key); i++ {
		want := hmacSum(sha256.New, key, msg)
		m := p.Get(sha256.New, key)
		key[i%len(key)] ^= 1 // while the MAC is out: it keeps the key it was made with
		m.Write(msg)
		if got := m.Sum(nil); !bytes.Equal(got, want) {
			t.Fatalf("round %d: MAC %x, want %x (the key at Get)", i, got, want)
		}
		p.Put(m)
		checkMAC(t, &p, hmacHashes[0], key, msg)
	}
}

// TestHMACHashChange checks that one pool used with one key and several hash
// functions, alternately, always gives crypto/hmac's MAC for the hash asked.
func TestHMACHashChange(t *testing.T) {
	key := []byte("one key for every hash")
	msg := []byte("msg")
	var p hashpool.HMAC
	for round := 0; round < 3; round++ {
		for _, h := range hmacHashes {
			checkMAC(t, &p, h, key, msg)
		}
		// sha256.New, sha512.New and sha256.New224 in turn, Get and GetHash mixed.
		for _, h := range []hmacHash{hmacHashes[0], hmacHashes[2], hmacHashes[1], hmacHashes[2], hmacHashes[0]} {
			checkMAC(t, &p, h, key, msg)
			if got, want := macOf(&p, p.GetHash(h.ch, key), msg), hmacSum(h.newHash, key, msg); !bytes.Equal(got, want) {
				t.Fatalf("GetHash(%s): %x, want %x", h.name, got, want)
			}
		}
	}
}

// TestHMACFuncIdentity checks func values that share their code pointer:
// method values of one method (crypto.Hash.New) and closures of one func
// literal that capture different hashes. A pool that told functions apart by
// their code pointer would answer SHA-512 with SHA-256 MACs here.
func TestHMACFuncIdentity(t *testing.T) {
	key := []byte("key")
	msg := []byte("msg")
	closure := func(ch crypto.Hash) func() hash.Hash {
		return func() hash.Hash { return ch.New() }
	}
	sha256Closure, sha512Closure := closure(crypto.SHA256), closure(crypto.SHA512)
	var p hashpool.HMAC
	for round := 0; round < 3; round++ {
		for _, tc := range []struct {
			name    string
			newHash func() hash.Hash
			want    func() hash.Hash
		}{
			{"crypto.SHA256.New", crypto.SHA256.New, sha256.New},
			{"crypto.SHA512.New", crypto.SHA512.New, sha512.New},
			{"closure of SHA-256", sha256Closure, sha256.New},
			{"closure of SHA-512", sha512Closure, sha512.New},
			{"new closure of SHA-256", closure(crypto.SHA256), sha256.New},
			{"new closure of SHA-512", closure(crypto.SHA512), sha512.New},
		} {
			want := hmacSum(tc.want, key, msg)
			if got := macOf(&p, p.Get(tc.newHash, key), msg); !bytes.Equal(got, want) {
				t.Fatalf("%s: MAC %x, want %x", tc.name, got, want)
			}
		}
	}
}

// TestHMACPutForeign checks that a MAC of another pool, even one for the same
// key and hash, is dropped by Put and never handed out.
func TestHMACPutForeign(t *testing.T) {
	var a, b hashpool.HMAC
	key := []byte("key")
	want := hmacSum(sha256.New, key, []byte("msg"))
	a.Get(sha256.New, key) // a has a generation for key, and an empty pool
	for i := 0; i < 100; i++ {
		foreign := b.Get(sha256.New, key)
		a.Put(foreign)
		m := a.Get(sha256.New, key) // a's pool is empty but for what a.Put kept
		if m == foreign {
			t.Fatal("a pool handed out a MAC of another pool")
		}
		m.Write([]byte("msg"))
		if got := m.Sum(nil); !bytes.Equal(got, want) {
			t.Fatalf("got %x, want %x", got, want)
		}
	}
}

// TestHMACPutOlderGeneration checks that a MAC made before the pool re-keyed
// is dropped by Put, whichever key comes next.
func TestHMACPutOlderGeneration(t *testing.T) {
	keyA, keyB := []byte("key A"), []byte("key B")
	for i := 0; i < 100; i++ {
		var p hashpool.HMAC
		old := p.Get(sha256.New, keyA)
		old.Write([]byte("data"))
		p.Get(sha256.New, keyB) // re-keys to B, and leaves the pool empty
		p.Put(old)              // a MAC for key A: dropped
		for _, key := range [][]byte{keyB, keyA} {
			m := p.Get(sha256.New, key)
			if m == old {
				t.Fatalf("round %d: Get(%q) handed out a MAC put back after the pool re-keyed", i, key)
			}
			m.Write([]byte("msg"))
			if got, want := m.Sum(nil), hmacSum(sha256.New, key, []byte("msg")); !bytes.Equal(got, want) {
				t.Fatalf("round %d: Get(%q): %x, want %x", i, key, got, want)
			}
		}
	}
}

func TestHMACPutNil(t *testing.T) {
	var p hashpool.HMAC
	p.Put(nil)
	p.Put(&hashpool.MAC{}) // not from any pool: dropped, on a zero pool
	checkMAC(t, &p, hmacHashes[0], []byte("key"))
	p.Put(nil)
	p.Put(&hashpool.MAC{}) // and on a pool in use
	if m := p.Get(sha256.New, []byte("key")); m == nil || m.Hash == nil {
		t.Fatal("Get returned no hasher")
	}
}

// TestHMACGetPanics checks that Get and GetHash panic on a hash function that
// cannot make a hasher, and leave the pool as it was.
func TestHMACGetPanics(t *testing.T) {
	var p hashpool.HMAC
	key := []byte("key")
	checkMAC(t, &p, hmacHashes[0], key)
	for name, get := range map[string]func(){
		"Get(nil)":                  func() { p.Get(nil, key) },
		"GetHash(0)":                func() { p.GetHash(0, key) },
		"GetHash(unavailable hash)": func() { p.GetHash(crypto.BLAKE2b_256, key) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			get()
		}()
		checkMAC(t, &p, hmacHashes[0], key)
	}
}

// TestHMACCopy checks that copies of a struct holding an HMAC by value, made
// by value receivers or by assignment, sign with their own key.
func TestHMACCopy(t *testing.T) {
	keyA, keyB := []byte("key A"), []byte("key B")
	msg := []byte("msg")
	wantA, wantB := hmacSum(sha256.New, keyA, msg), hmacSum(sha256.New, keyB, msg)

	s := signer{key: keyA}
	for i := 0; i < 3; i++ { // value receiver on a zero pool: each call re-keys its copy
		if got := s.valueSign(msg); !bytes.Equal(got, wantA) {
			t.Fatalf("value receiver on a zero pool: %x, want %x", got, wantA)
		}
	}
	if got := s.sign(msg); !bytes.Equal(got, wantA) { // the pool now has a generation
		t.Fatalf("pointer receiver: %x, want %x", got, wantA)
	}
	c := s // shares the generation
	for i := 0; i < 3; i++ {
		if got := c.sign(msg); !bytes.Equal(got, wantA) {
			t.Fatalf("copy: %x, want %x", got, wantA)
		}
		if got := s.valueSign(msg); !bytes.Equal(got, wantA) {
			t.Fatalf("value receiver: %x, want %x", got, wantA)
		}
	}
	c.key = keyB // the copy re-keys; the original keeps its key
	for i := 0; i < 3; i++ {
		if got := c.sign(msg); !bytes.Equal(got, wantB) {
			t.Fatalf("copy with key B: %x, want %x", got, wantB)
		}
		if got := s.sign(msg); !bytes.Equal(got, wantA) {
			t.Fatalf("original after the copy re-keyed: %x, want %x", got, wantA)
		}
		if got := c.valueSign(msg); !bytes.Equal(got, wantB) {
			t.Fatalf("value receiver on the copy: %x, want %x", got, wantB)
		}
	}
	// A MAC of the original, put into the copy that re-keyed, is dropped.
	m := s.macs.Get(sha256.New, keyA)
	c.macs.Put(m)
	if got := c.sign(msg); !bytes.Equal(got, wantB) {
		t.Fatalf("copy after a Put of the original's MAC: %x, want %x", got, wantB)
	}
}

// TestHMACCopyVet runs go vet on a module that copies structs holding an
// HMAC by value, and checks that copylocks has nothing to say, while it does
// flag the same code with a sync.Mutex in the struct (so the check ran).
func TestHMACCopyVet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	runtimeDir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const code = `package %s

import (
	"crypto/sha256"
	%s
)

type Signer struct {
	key  []byte
	macs %s
}

func (s Signer) Sign(msg []byte) []byte {
	return append([]byte(nil), msg...)
}

func Copy(s *Signer) Signer {
	c := *s
	return c
}

var _ = sha256.New
`
	files := map[string]string{
		"go.mod": "module example.com/copyvet\n\ngo 1.21\n\n" +
			"require github.com/hashalloc/hashalloc/runtime v0.0.0\n\n" +
			"replace github.com/hashalloc/hashalloc/runtime => " + runtimeDir + "\n",
		"hmac/hmac.go":   fmt.Sprintf(code, "hmac", `"github.com/hashalloc/hashalloc/runtime/hashpool"`, "hashpool.HMAC"),
		"mutex/mutex.go": fmt.Sprintf(code, "mutex", `"sync"`, "sync.Mutex"),
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vet := func(pkg string) (string, error) {
		cmd := exec.Command(goCmd, "vet", pkg)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := vet("./hmac"); err != nil {
		t.Errorf("go vet on structs holding a hashpool.HMAC copied by value: %v\n%s", err, out)
	}
	if out, err := vet("./mutex"); err == nil || !strings.Contains(out, "lock") {
		t.Errorf("go vet did not flag the copies of a sync.Mutex (the control): %v\n%s", err, out)
	}
}

// TestHMACZeroAllocs checks that Get+Write+Sum+Put (or Equal in place of
// Sum) with an unchanged key does not allocate, for each stable way of naming the hash, for a pool in a
// struct field and for a key on the caller's stack.
func TestHMACZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values at random")
	}
	key := []byte("a 32-byte key for the allocation")
	msg := make([]byte, 100)
	buf := make([]byte, 0, sha512.Size)
	var p hashpool.HMAC
	s := &signer{key: key}
	tag := hmacSum(sha256.New, key, msg)
	// See TestPoolZeroAllocs for why the pool does not empty during the run.
	for name, f := range map[string]func(){
		"Get(sha256.New)": func() {
			m := p.Get(sha256.New, key)
			m.Write(msg)
			buf = m.Sum(buf[:0])
			p.Put(m)
		},
		"Get(func literal)": func() {
			m := p.Get(func() hash.Hash { return sha512.New() }, key)
			m.Write(msg)
			buf = m.Sum(buf[:0])
			p.Put(m)
		},
		"GetHash(crypto.SHA256)": func() {
			m := p.GetHash(crypto.SHA256, key)
			m.Write(msg)
			buf = m.Sum(buf[:0])
			p.Put(m)
		},
		"field": func() {
			m := s.macs.Get(sha256.New, s.key)
			m.Write(msg)
			buf = m.Sum(buf[:0])
			s.macs.Put(m)
		},
		"Equal": func() {
			m := p.Get(sha256.New, key)
			m.Write(msg)
			if !m.Equal(tag) {
				panic("Equal: false for the right MAC")
			}
			p.Put(m)
		},
		"key on the stack": func() {
			var k [32]byte
			copy(k[:], key)
			m := p.Get(sha256.New, k[:])
			m.Write(msg)
			buf = m.Sum(buf[:0])
			p.Put(m)
		},
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: Get+Write+Sum+Put: %v allocs/op, want 0", name, n)
		}
	}
}

// TestHMACConcurrentOneKey checks, under -race, that goroutines sharing one
// pool and one key get the right MACs and never each other's data.
func TestHMACConcurrentOneKey(t *testing.T) {
	s := &signer{key: []byte("concurrency key")}
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var buf []byte
			for i := 0; i < 200; i++ {
				part1 := fmt.Appendf(nil, "goroutine %d ", g)
				part2 := fmt.Appendf(nil, "message %d", i)
				m := s.macs.Get(sha256.New, s.key)
				m.Write(part1)
				runtime.Gosched() // let others use the pool in between
				m.Write(part2)
				buf = m.Sum(buf[:0])
				s.macs.Put(m)
				if want := hmacSum(sha256.New, s.key, part1, part2); !bytes.Equal(buf, want) {
					t.Errorf("goroutine %d: got %x, want %x", g, buf, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestHMACConcurrentKeys checks, under -race, goroutines that share one pool
// but alternate between two keys and two hashes: the pool re-keys all the
// time, and every MAC must still be the one asked for.
func TestHMACConcurrentKeys(t *testing.T) {
	var p hashpool.HMAC
	keys := [][]byte{[]byte("key A"), []byte("key B")}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var buf []byte
			for i := 0; i < 200; i++ {
				key := keys[(g+i)%2]
				h := hmacHashes[0]
				if (g+i)%3 == 0 {
					h = hmacHashes[2]
				}
				msg := fmt.Appendf(nil, "goroutine %d message %d", g, i)
				m := p.Get(h.newHash, key)
				if i%2 == 1 {
					p.Put(m)
					m = p.GetHash(h.ch, key)
				}
				runtime.Gosched()
				m.Write(msg)
				buf = m.Sum(buf[:0])
				p.Put(m)
				if want := hmacSum(h.newHash, key, msg); !bytes.Equal(buf, want) {
					t.Errorf("goroutine %d, %s, key %q: got %x, want %x", g, h.name, key, buf, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestHMACConcurrentValueReceivers checks, under -race, that goroutines may
// call value methods of one struct holding an HMAC: each works on its copy.
func TestHMACConcurrentValueReceivers(t *testing.T) {
	s := signer{key: []byte("key")}
	s.sign(nil) // give the pool a generation that the copies share
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				msg := fmt.Appendf(nil, "goroutine %d message %d", g, i)
				if got, want := s.valueSign(msg), hmacSum(sha256.New, s.key, msg); !bytes.Equal(got, want) {
					t.Errorf("goroutine %d: got %x, want %x", g, got, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestHMACRandomUse drives one pool (and copies of it) with random keys,
// hashes, messages, in-place key changes and MACs put back late, and checks
// every MAC against crypto/hmac.
func TestHMACRandomUse(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	randBytes := func(max int) []byte {
		b := make([]byte, rng.Intn(max+1))
		rng.Read(b)
		return b
	}
	keys := [][]byte{randBytes(16), randBytes(64), randBytes(200)}
	pools := []*hashpool.HMAC{new(hashpool.HMAC)}
	var late []*hashpool.MAC // MACs not yet put back, maybe of older generations
	for step := 0; step < 3000; step++ {
		p := pools[rng.Intn(len(pools))]
		h := hmacHashes[rng.Intn(len(hmacHashes))]
		key := keys[rng.Intn(len(keys))]
		switch rng.Intn(8) {
		case 0: // a new key
			keys[rng.Intn(len(keys))] = randBytes(300)
		case 1: // a key changed in place
			if len(key) > 0 {
				key[rng.Intn(len(key))] ^= byte(1 + rng.Intn(255))
			}
		case 2: // a copy of a pool
			c := new(hashpool.HMAC)
			*c = *p
			pools = append(pools, c)
		case 3: // a MAC put back late, maybe into another pool
			if len(late) > 0 {
				i := rng.Intn(len(late))
				p.Put(late[i])
				late = append(late[:i], late[i+1:]...)
			}
		}
		var m *hashpool.MAC
		if rng.Intn(2) == 0 {
			m = p.Get(h.newHash, key)
		} else {
			m = p.GetHash(h.ch, key)
		}
		a, b := randBytes(300), randBytes(100)
		want := hmacSum(h.newHash, key, a, b)
		m.Write(a)
		m.Write(b)
		if got := m.Sum(nil); !bytes.Equal(got, want) {
			t.Fatalf("step %d: %s, key %x: MAC %x, want %x", step, h.name, key, got, want)
		}
		if rng.Intn(4) == 0 {
			late = append(late, m)
		} else {
			p.Put(m)
		}
	}
}

// FuzzHMAC checks Get and GetHash against crypto/hmac for every hash, on one
// pool that goes through key rotations, keys changed in place and
// alternating hash functions.
func FuzzHMAC(f *testing.F) {
	f.Add([]byte{}, []byte{}, []byte{}, []byte{})
	f.Add([]byte("key"), []byte("key2"), []byte("hello, "), []byte("world"))
	f.Add(bytes.Repeat([]byte("k"), 200), []byte("k"), bytes.Repeat([]byte("m"), 1024), []byte("tail"))
	for _, n := range []int{1, 63, 64, 65, 128, 129, 136, 168} {
		f.Add(bytes.Repeat([]byte{byte(n)}, n), bytes.Repeat([]byte{byte(n)}, n+1), bytes.Repeat([]byte{1}, n), []byte{})
	}
	f.Fuzz(func(t *testing.T, key, key2, a, b []byte) {
		var p hashpool.HMAC
		key = bytes.Clone(key)
		for round := 0; round < 2; round++ { // the second round may reuse MACs
			for _, h := range hmacHashes {
				checkMAC(t, &p, h, key, a, b)
				checkMAC(t, &p, h, key2, a, b) // a rotation
				checkMAC(t, &p, h, key, a, b)  // and back
				if len(key) > 0 {
					key[len(key)/2] ^= 0x80 // changed in place
					checkMAC(t, &p, h, key, a, b)
				}
			}
		}
	})
}
