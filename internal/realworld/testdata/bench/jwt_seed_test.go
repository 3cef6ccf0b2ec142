// A benchmark written for hashalloc's real-world corpus (seed 003, the
// cristalhq/jwt case), copied into the module's root by the corpus runner.
//
// The seed's pull request measured HS/Verify-HS256 with a benchmark file
// added to the repository the day after v2.0.0 (in no version that still has
// the naive code). This one measures the same thing: a verifier made once
// per key, then Verify on a signed token, per operation; and Sign the same
// way. The key is fixed per signer and verifier, as in the seed.

package jwt_test

import (
	"testing"

	"github.com/cristalhq/jwt/v2"
)

func BenchmarkSeedHS(b *testing.B) {
	key := []byte("a key of the benchmark")
	for _, alg := range []jwt.Algorithm{jwt.HS256, jwt.HS384, jwt.HS512} {
		signer, err := jwt.NewSignerHS(alg, key)
		if err != nil {
			b.Fatal(err)
		}
		verifier, err := jwt.NewVerifierHS(alg, key)
		if err != nil {
			b.Fatal(err)
		}
		payload := []byte(`{"jti":"id","iss":"issuer","iat":1589000000}`)
		signature, err := signer.Sign(payload)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("Sign-"+string(alg), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := signer.Sign(payload); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Verify-"+string(alg), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := verifier.Verify(payload, signature); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
