//go:build go1.24

package hashpool_test

import (
	"crypto"
	"crypto/sha3"
	"hash"

	"github.com/hashalloc/hashalloc/runtime/hashpool"
)

func init() {
	pools = append(pools,
		poolCase{"SHA3_224", hashpool.SHA3_224, func() hash.Hash { return sha3.New224() }},
		poolCase{"SHA3_256", hashpool.SHA3_256, func() hash.Hash { return sha3.New256() }},
		poolCase{"SHA3_384", hashpool.SHA3_384, func() hash.Hash { return sha3.New384() }},
		poolCase{"SHA3_512", hashpool.SHA3_512, func() hash.Hash { return sha3.New512() }},
	)
	hmacHashes = append(hmacHashes,
		hmacHash{"SHA3_256", func() hash.Hash { return sha3.New256() }, crypto.SHA3_256},
		hmacHash{"SHA3_512", func() hash.Hash { return sha3.New512() }, crypto.SHA3_512},
	)
}
