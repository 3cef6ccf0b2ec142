package hashsum_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

func ExampleSHA256() {
	header := []byte("hello, ")
	body := []byte("world")
	// Same digest as sha256.Sum256(append(header, body...)), without the append.
	fmt.Printf("%x\n", hashsum.SHA256(header, body))
	// Output:
	// 09ca7e4eaa6e8ae9c7d261167129184883644d07dfba7cbfbc4c8a2e08360d5b
}

func ExampleHMACSHA256() {
	key := []byte("a key for this message only")
	header := []byte("hello, ")
	body := []byte("world")
	// The MAC of hmac.New(sha256.New, key) fed header and body, without
	// allocating.
	tag := hashsum.HMACSHA256(key, header, body)
	fmt.Printf("%x\n", tag)

	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("hello, world"))
	fmt.Println(hmac.Equal(tag[:], mac.Sum(nil)))
	// Output:
	// d1fc552039936c7831f34d7c58529c811a1b8e9c50e5ae5c560cfcb6976bf92b
	// true
}

func ExampleAppendHMACFunc() {
	// A hash function chosen by the caller, as a JWE content cipher holds it.
	newHash := sha256.New
	key := []byte("a key for this message only")
	tag := hashsum.AppendHMACFunc(newHash, nil, key, []byte("hello, "), []byte("world"))

	mac := hmac.New(newHash, key)
	mac.Write([]byte("hello, world"))
	fmt.Println(hmac.Equal(tag, mac.Sum(nil)))
	// Output:
	// true
}
