package hashpool_test

import (
	"crypto/sha256"
	"fmt"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

func ExamplePool() {
	h := hashpool.SHA256.Get()
	defer hashpool.SHA256.Put(h)
	h.Write([]byte("hello, "))
	h.Write([]byte("world"))
	fmt.Printf("%x\n", h.Sum(nil))
	// Output:
	// 09ca7e4eaa6e8ae9c7d261167129184883644d07dfba7cbfbc4c8a2e08360d5b
}

// Signer signs messages with a secret key. Its HMAC pool is created with the
// key and lives as long as the Signer.
type Signer struct {
	mac *hashpool.HMAC
}

func NewSigner(key []byte) *Signer {
	return &Signer{mac: hashpool.NewHMAC(sha256.New, key)}
}

func (s *Signer) Sign(dst, msg []byte) []byte { return s.mac.Sum(dst, msg) }

func (s *Signer) Verify(tag, msg []byte) bool { return s.mac.Equal(tag, msg) }

func ExampleHMAC() {
	s := NewSigner([]byte("secret key"))
	msg := []byte("hello, world")
	tag := s.Sign(nil, msg)
	fmt.Printf("%x\n", tag)
	fmt.Println(s.Verify(tag, msg))
	fmt.Println(s.Verify(tag, []byte("hello, world!")))
	// Output:
	// be15ce7cd40d8e8981f963ac3fb2a959ad3b284041fc50564b37fabc6d1c80b3
	// true
	// false
}
