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

// Signer signs messages with a secret key. Its pool of MACs is a plain field
// beside the key: the zero value is ready, so a Signer needs no constructor
// and works however it is made.
type Signer struct {
	Key  []byte
	macs hashpool.HMAC
}

// Sign appends the HMAC-SHA256 of msg to dst.
func (s *Signer) Sign(dst, msg []byte) []byte {
	mac := s.macs.Get(sha256.New, s.Key)
	defer s.macs.Put(mac)
	mac.Write(msg)
	return mac.Sum(dst)
}

// Verify reports whether tag is the HMAC-SHA256 of msg.
func (s *Signer) Verify(tag, msg []byte) bool {
	mac := s.macs.Get(sha256.New, s.Key)
	defer s.macs.Put(mac)
	mac.Write(msg)
	return mac.Equal(tag)
}

func ExampleHMAC() {
	s := &Signer{Key: []byte("secret key")}
	msg := []byte("hello, world")
	tag := s.Sign(nil, msg)
	fmt.Printf("%x\n", tag)
	fmt.Println(s.Verify(tag, msg))
	fmt.Println(s.Verify(tag, []byte("hello, world!")))

	s.Key = []byte("rotated key") // the next Get re-keys the pool
	fmt.Println(s.Verify(tag, msg))
	// Output:
	// be15ce7cd40d8e8981f963ac3fb2a959ad3b284041fc50564b37fabc6d1c80b3
	// true
	// false
	// false
}
