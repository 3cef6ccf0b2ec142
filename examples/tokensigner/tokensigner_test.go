package tokensigner

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
)

// refHMAC is HMAC-SHA256 computed by the standard library directly.
func refHMAC(key, msg []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return m.Sum(nil)
}

// RFC 4231, section 4: HMAC-SHA-256 test cases 1, 2 and 6.
var rfc4231 = []struct {
	name      string
	key, data []byte
	want      string
}{
	{"case1", bytes.Repeat([]byte{0x0b}, 20), []byte("Hi There"),
		"b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
	{"case2", []byte("Jefe"), []byte("what do ya want for nothing?"),
		"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
	{"case6", bytes.Repeat([]byte{0xaa}, 131), []byte("Test Using Larger Than Block-Size Key - Hash Key First"),
		"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
}

func TestSignKnownAnswers(t *testing.T) {
	for _, tc := range rfc4231 {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSigner(tc.key)
			// Twice: a signer must give the same answer on every call.
			for range 2 {
				got := s.Sign(tc.data)
				if hex.EncodeToString(got) != tc.want {
					t.Fatalf("Sign = %x, want %s", got, tc.want)
				}
				if !bytes.Equal(got, refHMAC(tc.key, tc.data)) {
					t.Fatalf("Sign = %x, crypto/hmac says %x", got, refHMAC(tc.key, tc.data))
				}
				if !s.Verify(tc.data, got) {
					t.Fatal("Verify rejects the signature Sign made")
				}
			}
		})
	}
}

func TestSignIndependentOfCallerKey(t *testing.T) {
	key := []byte("a key the caller reuses")
	s := NewSigner(key)
	want := refHMAC([]byte("a key the caller reuses"), []byte("msg"))
	copy(key, "XXXXXXXXXXXXXXXXXXXXXXX")
	if got := s.Sign([]byte("msg")); !bytes.Equal(got, want) {
		t.Fatalf("Sign after the caller changed its key slice = %x, want %x", got, want)
	}
}

func TestVerifyRejects(t *testing.T) {
	s := NewSigner([]byte("secret"))
	msg := []byte("transfer 100 to alice")
	sig := s.Sign(msg)
	bad := bytes.Clone(sig)
	bad[len(bad)-1] ^= 1
	for _, tc := range []struct {
		name     string
		msg, sig []byte
	}{
		{"flipped bit", msg, bad},
		{"other message", []byte("transfer 900 to alice"), sig},
		{"truncated", msg, sig[:len(sig)-1]},
		{"empty", msg, nil},
		{"other key", msg, refHMAC([]byte("not the secret"), msg)},
	} {
		if s.Verify(tc.msg, tc.sig) {
			t.Errorf("%s: Verify accepts a bad signature", tc.name)
		}
	}
	if !s.Verify(msg, sig) {
		t.Error("Verify rejects a good signature after rejecting bad ones")
	}
}

// The HS256 example token of jwt.io, signed with "your-256-bit-secret".
const jwtIOToken = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" +
	".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ" +
	".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"

func TestTokenKnownAnswer(t *testing.T) {
	s := NewSigner([]byte("your-256-bit-secret"))
	claims := []byte(`{"sub":"1234567890","name":"John Doe","iat":1516239022}`)
	if got := s.Token(claims); got != jwtIOToken {
		t.Fatalf("Token = %s\nwant    %s", got, jwtIOToken)
	}
	got, err := s.Parse(jwtIOToken)
	if err != nil || !bytes.Equal(got, claims) {
		t.Fatalf("Parse = %q, %v; want %q", got, err, claims)
	}
	for _, bad := range []string{
		"",
		"no dots",
		jwtIOToken[:len(jwtIOToken)-1] + "d",
		"eyJhbGciOiJub25lIn0" + jwtIOToken[len("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"):],
		jwtIOToken + "=",
	} {
		if _, err := s.Parse(bad); err != ErrInvalid {
			t.Errorf("Parse(%q) error = %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := NewSigner([]byte("other secret")).Parse(jwtIOToken); err != ErrInvalid {
		t.Errorf("Parse with another key: error = %v, want ErrInvalid", err)
	}
}

func TestSignAll(t *testing.T) {
	key := []byte("Jefe")
	payloads := [][]byte{
		[]byte("what do ya want for nothing?"),
		nil,
		[]byte("what do ya want for nothing?"),
		[]byte("a third payload"),
	}
	sigs := SignAll(key, payloads)
	if len(sigs) != len(payloads) {
		t.Fatalf("SignAll returned %d signatures for %d payloads", len(sigs), len(payloads))
	}
	for i, p := range payloads {
		if !bytes.Equal(sigs[i], refHMAC(key, p)) {
			t.Errorf("signature %d = %x, want %x", i, sigs[i], refHMAC(key, p))
		}
	}
	const want0 = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
	if hex.EncodeToString(sigs[0]) != want0 || hex.EncodeToString(sigs[2]) != want0 {
		t.Errorf("signatures 0 and 2 = %x, %x; want RFC 4231 case 2, %s", sigs[0], sigs[2], want0)
	}
	if len(SignAll(key, nil)) != 0 {
		t.Error("SignAll of no payloads is not empty")
	}
}

// Signers are used from many goroutines at once, as in an HTTP server.
func TestConcurrentUse(t *testing.T) {
	a, b := NewSigner([]byte("key a")), NewSigner([]byte("key b"))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Go(func() {
			s, key := a, []byte("key a")
			if g%2 == 1 {
				s, key = b, []byte("key b")
			}
			for i := range 200 {
				msg := fmt.Appendf(nil, "goroutine %d message %d", g, i)
				sig := s.Sign(msg)
				if !bytes.Equal(sig, refHMAC(key, msg)) || !s.Verify(msg, sig) {
					errs <- fmt.Errorf("goroutine %d: wrong signature for %q", g, msg)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestNewVerifier(t *testing.T) {
	if _, err := NewVerifier(nil); err != ErrNoKey {
		t.Fatalf("NewVerifier(nil) error = %v, want ErrNoKey", err)
	}
	key := []byte("your-256-bit-secret")
	v, err := NewVerifier(key)
	if err != nil {
		t.Fatal(err)
	}
	copy(key, "XXXX")
	claims, err := v.Parse(jwtIOToken)
	if err != nil || !bytes.Contains(claims, []byte("John Doe")) {
		t.Fatalf("Parse = %q, %v", claims, err)
	}
	// A verifier and a signer built from the same key agree, both ways.
	s := NewSigner([]byte("your-256-bit-secret"))
	msg := []byte("payload")
	if !v.Verify(msg, s.Sign(msg)) || !s.Verify(msg, v.Sign(msg)) {
		t.Fatal("a signer and a verifier with the same key disagree")
	}
	other, err := NewVerifier([]byte("another key"))
	if err != nil {
		t.Fatal(err)
	}
	if other.Verify(msg, s.Sign(msg)) {
		t.Fatal("a verifier with another key accepts the signature")
	}
}

// BenchmarkHS is the benchmark of the cristalhq/jwt seed, HS256: build a
// signed token from claims (Sign-HS256), and verify the signature of a
// payload (Verify-HS256), each with a Signer from its own constructor.
func BenchmarkHS(b *testing.B) {
	claims := []byte(`{"sub":"1234567890","name":"John Doe","iat":1516239022}`)
	payload := []byte("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0")
	s := NewSigner([]byte("your-256-bit-secret"))
	v, err := NewVerifier([]byte("your-256-bit-secret"))
	if err != nil {
		b.Fatal(err)
	}
	sig := s.Sign(payload)
	b.Run("Sign-HS256", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Token(claims)
		}
	})
	b.Run("Verify-HS256", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !v.Verify(payload, sig) {
				b.Fatal("Verify rejects the signature Sign made")
			}
		}
	})
}

func BenchmarkSignVerify(b *testing.B) {
	s := NewSigner([]byte("your-256-bit-secret"))
	msg := []byte("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0")
	b.ReportAllocs()
	for b.Loop() {
		if !s.Verify(msg, s.Sign(msg)) {
			b.Fatal("Verify rejects the signature Sign made")
		}
	}
}
