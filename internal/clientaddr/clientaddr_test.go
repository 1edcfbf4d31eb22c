package clientaddr

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestParsePrefixes(t *testing.T) {
	got, err := ParsePrefixes(" 10.0.0.0/8, 192.168.1.7 ,, ::1, 172.16.5.9/12")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.0/8", "192.168.1.7/32", "::1/128", "172.16.0.0/12"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("prefix %d = %s, want %s", i, got[i], want[i])
		}
	}
	if none, err := ParsePrefixes(""); err != nil || len(none) != 0 {
		t.Errorf("empty: %v %v", none, err)
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.local", "10.0.0"} {
		if _, err := ParsePrefixes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestTrust(t *testing.T) {
	trusted, err := ParsePrefixes("10.0.0.0/8, fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		peer   string
		xff    []string
		want   string // RemoteAddr seen by the handler
		wantIP string // Key
	}{
		{"direct client: header ignored", "203.0.113.9:4000", []string{"198.51.100.1"}, "203.0.113.9:4000", "203.0.113.9"},
		{"one proxy", "10.1.2.3:5000", []string{"198.51.100.1"}, "198.51.100.1:0", "198.51.100.1"},
		{"forged entry on the left is skipped", "10.1.2.3:5000", []string{"1.2.3.4, 198.51.100.1"}, "198.51.100.1:0", "198.51.100.1"},
		{"chain of trusted proxies", "10.1.2.3:5000", []string{"198.51.100.1, 10.9.9.9", "10.8.8.8"}, "198.51.100.1:0", "198.51.100.1"},
		{"garbage stops the walk", "10.1.2.3:5000", []string{"198.51.100.1, nonsense"}, "10.1.2.3:5000", "10.1.2.3"},
		{"proxy without the header", "10.1.2.3:5000", nil, "10.1.2.3:5000", "10.1.2.3"},
		{"only proxies: the leftmost", "10.1.2.3:5000", []string{"10.7.7.7, 10.8.8.8"}, "10.7.7.7:0", "10.7.7.7"},
		{"IPv6 client counts by /64", "[fd00::1]:443", []string{"2001:db8:1:2:aaaa::5"}, "[2001:db8:1:2:aaaa::5]:0", "2001:db8:1:2::/64"},
		{"IPv4-mapped proxy", "[::ffff:10.0.0.2]:80", []string{"::ffff:198.51.100.4"}, "198.51.100.4:0", "198.51.100.4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var seen, key string
			h := Trust(trusted)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
				seen, key = r.RemoteAddr, Key(r)
			}))
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = c.peer
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			if seen != c.want || key != c.wantIP {
				t.Errorf("RemoteAddr %q key %q, want %q %q", seen, key, c.want, c.wantIP)
			}
		})
	}

	// No trusted proxies: nothing is rewritten, whoever the peer.
	var seen string
	h := Trust(nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { seen = r.RemoteAddr }))
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = "10.1.2.3:5000"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if seen != "10.1.2.3:5000" {
		t.Errorf("without trusted proxies RemoteAddr became %q", seen)
	}
}

func TestKeyAndHost(t *testing.T) {
	for remote, want := range map[string][2]string{
		"192.0.2.1:1234":            {"192.0.2.1", "192.0.2.1"},
		"[2001:db8::1]:80":          {"2001:db8::/64", "2001:db8::1"},
		"[2001:db8:0:0:ffff::2]:80": {"2001:db8::/64", "2001:db8::ffff:0:0:2"},
		"pipe":                      {"pipe", "pipe"},
		"[::ffff:192.0.2.200]:9":    {"192.0.2.200", "192.0.2.200"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = remote
		if got := Key(r); got != want[0] {
			t.Errorf("Key(%q) = %q, want %q", remote, got, want[0])
		}
		if got := Host(r); got != want[1] {
			t.Errorf("Host(%q) = %q, want %q", remote, got, want[1])
		}
	}
}
