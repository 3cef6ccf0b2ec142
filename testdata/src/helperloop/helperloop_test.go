package helperloop

import "testing"

func TestDigest(t *testing.T) {
	if d, err := (scram{mechanism: 256}).digest([]byte("key"), []byte("msg")); err != nil || len(d) != 32 {
		t.Fatalf("digest: %x, %v", d, err)
	}
}
