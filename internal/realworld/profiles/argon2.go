//go:build ignore

// Command argon2 writes a CPU profile of argon2id key derivations
// (golang.org/x/crypto/argon2.IDKey) with the second set of parameters that
// RFC 9106 recommends: 3 passes over 64 MiB, 4 lanes, a 32-byte key, run 3
// times. A password hashing service spends its time there.
//
// The corpus runner copies it into the root of the module's copy and runs
// it there: go run hashalloc_profile.go PROFILE.
package main

import (
	"log"
	"os"
	"runtime/pprof"

	"golang.org/x/crypto/argon2"
)

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	salt := []byte("a 16-byte salt!!")
	for i := range 3 {
		argon2.IDKey([]byte("correct horse battery staple"), salt, 3, 64*1024, 4, 32)
		salt[0] = byte(i)
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
