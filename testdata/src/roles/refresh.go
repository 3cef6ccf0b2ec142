package roles

import (
	"crypto"
	"crypto/hmac"
	"net/http"
	"time"
)

// refreshing signs the token its requests carry again only when the last
// one has expired (every 30 minutes): RoundTrip reaches the HMAC only under
// a test on the clock, not once per request. Not reported.
type refreshing struct {
	key     []byte
	token   []byte
	expires time.Time
}

func (t *refreshing) RoundTrip(r *http.Request) (*http.Response, error) {
	if time.Now().After(t.expires) {
		t.refresh()
	}
	r.Header.Set("Authorization", string(t.token))
	return nil, nil
}

func (t *refreshing) refresh() {
	mac := hmac.New(crypto.SHA256.New, t.key)
	mac.Write([]byte("token"))
	t.token = mac.Sum(t.token[:0])
	t.expires = time.Now().Add(30 * time.Minute)
}

func CaseRefresh() { (&refreshing{key: data}).RoundTrip(req) }

// renewing signs the same token once per item of a loop: reported.
type renewing struct {
	key   []byte
	token []byte
}

func (t *renewing) renew() {
	mac := hmac.New(crypto.SHA256.New, t.key) // want `hmac-rekey: hmac.New\(crypto.SHA256.New, t.key\) re-keys an HMAC \(5 allocations\) once per call of renew, which CaseRenewAll calls once per element of tokens \(the loop at refresh.go:\d+\), with a key fixed for each \*renewing \(field key\); automatic fix: take mac from a pool of HMACs keyed with t\.key, held next to it`
	mac.Write([]byte("token"))
	t.token = mac.Sum(t.token[:0])
}

var tokens = make([]renewing, 3)

func CaseRenewAll() {
	for i := range tokens {
		tokens[i].key = data
		tokens[i].renew()
	}
}

func ResultRenew() string {
	t := &renewing{key: data}
	t.renew()
	first := string(t.token)
	t.renew()
	return first + string(t.token)
}
