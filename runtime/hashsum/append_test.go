package hashsum

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"testing"
)

func TestAppend(t *testing.T) {
	parts := [][]byte{[]byte("left"), nil, []byte("right")}
	joined := bytes.Join(parts, nil)
	dst := []byte("prefix")
	for _, tc := range []struct {
		name string
		got  []byte
		want []byte
	}{
		{"SHA256", AppendSHA256(nil, parts...), sha256.New().Sum(nil)},
		{"SHA224", AppendSHA224(dst, parts...), nil},
		{"SHA512", AppendSHA512(nil, parts...), nil},
		{"SHA384", AppendSHA384(nil, parts...), nil},
		{"SHA512_224", AppendSHA512_224(nil, parts...), nil},
		{"SHA512_256", AppendSHA512_256(nil, parts...), nil},
		{"SHA1", AppendSHA1(nil, parts...), nil},
		{"MD5", AppendMD5(nil, parts...), nil},
	} {
		var want []byte
		switch tc.name {
		case "SHA256":
			s := sha256.Sum256(joined)
			want = s[:]
		case "SHA224":
			s := sha256.Sum224(joined)
			want = append([]byte("prefix"), s[:]...)
		case "SHA512":
			s := sha512.Sum512(joined)
			want = s[:]
		case "SHA384":
			s := sha512.Sum384(joined)
			want = s[:]
		case "SHA512_224":
			s := sha512.Sum512_224(joined)
			want = s[:]
		case "SHA512_256":
			s := sha512.Sum512_256(joined)
			want = s[:]
		case "SHA1":
			s := sha1.Sum(joined)
			want = s[:]
		case "MD5":
			s := md5.Sum(joined)
			want = s[:]
		}
		if !bytes.Equal(tc.got, want) {
			t.Errorf("Append%s = %x, want %x", tc.name, tc.got, want)
		}
	}
}

func TestAppendAllocs(t *testing.T) {
	a, b := []byte("left"), []byte("right")
	dst := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { dst = AppendSHA256(dst[:0], a, b) }); n != 0 {
		t.Errorf("AppendSHA256 into a buffer with room: %v allocs, want 0", n)
	}
}

func TestAppendHMAC(t *testing.T) {
	key, parts := []byte("a key"), [][]byte{[]byte("left"), []byte("right")}
	mac := hmac.New(sha256.New, key)
	for _, p := range parts {
		mac.Write(p)
	}
	want := mac.Sum([]byte("dst"))
	if got := AppendHMACSHA256([]byte("dst"), key, parts...); !bytes.Equal(got, want) {
		t.Errorf("AppendHMACSHA256 = %x, want %x", got, want)
	}
	dst := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { dst = AppendHMACSHA256(dst[:0], key, parts...) }); n != 0 {
		t.Errorf("AppendHMACSHA256 into a buffer with room: %v allocs, want 0", n)
	}
}
