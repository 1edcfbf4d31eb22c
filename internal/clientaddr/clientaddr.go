// Package clientaddr tells who a request came from, for the rate limits (sign-up,
// recovery, contact, CNPJ lookup, /mailer) and the logs.
//
// By default that is the connection's peer (r.RemoteAddr). Behind a reverse
// proxy or a load balancer every client would share the proxy's address, so the
// operator lists the proxies in TRUSTED_PROXIES and Trust rewrites RemoteAddr
// from X-Forwarded-For, but only for connections that come from one of them:
// a client reaching the server directly cannot choose its address.
package clientaddr

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParsePrefixes reads a comma-separated list of networks (CIDR) or single
// addresses, e.g. "10.0.0.0/8, 172.16.0.0/12, ::1". Empty: none.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("%q is not a network (e.g. 10.0.0.0/8)", f)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address or a network (e.g. 10.0.0.0/8)", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// Trust rewrites r.RemoteAddr, for requests whose peer is one of the trusted
// proxies, to the nearest address of X-Forwarded-For that is not a trusted
// proxy (read from the right: the entries on the left were written by the
// client and may be forged). No trusted proxies: the handler as is.
func Trust(trusted []netip.Prefix) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if len(trusted) == 0 {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if a, ok := Forwarded(r, trusted); ok {
				r.RemoteAddr = net.JoinHostPort(a.String(), "0")
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Forwarded is the client's address as the trusted proxies tell it, when the
// peer is one of them and X-Forwarded-For has a usable entry.
func Forwarded(r *http.Request, trusted []netip.Prefix) (netip.Addr, bool) {
	peer, ok := peerAddr(r.RemoteAddr)
	if !ok || !contains(trusted, peer) {
		return netip.Addr{}, false
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	var client netip.Addr
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // garbage: trust nothing further left
		}
		client = a.Unmap()
		if !contains(trusted, client) {
			break
		}
	}
	return client, client.IsValid()
}

// Key is the address a rate limit counts: the IPv4 address, or the /64
// network of an IPv6 address (which one subscriber usually holds whole).
func Key(r *http.Request) string {
	a, ok := peerAddr(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}

// Host is the peer's address without the port, for logs.
func Host(r *http.Request) string {
	if a, ok := peerAddr(r.RemoteAddr); ok {
		return a.String()
	}
	return r.RemoteAddr
}

func peerAddr(remote string) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

func contains(prefixes []netip.Prefix, a netip.Addr) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
