package fieldapi

import "testing"

func TestStamp(t *testing.T) {
	s := &stamp{[]byte("k"), 1}
	if len(s.sign([]byte("m"))) != 32 {
		t.Fatal("not a SHA-256 MAC")
	}
}

func TestClient(t *testing.T) {
	if len(NewClient([]byte("k")).Sign([]byte("m"))) != 32 {
		t.Fatal("not a SHA-256 MAC")
	}
}
