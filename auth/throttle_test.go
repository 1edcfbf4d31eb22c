package auth_test

import (
	"fmt"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"oportuna/auth"
	"oportuna/internal/clientaddr"
)

// behindProxy serves the env's routes behind clientaddr.Trust (TRUSTED_PROXIES
// = the loopback), so a test names the client address with X-Forwarded-For.
func behindProxy(e *env, svc *auth.Service) *httptest.Server {
	loop := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	srv := httptest.NewServer(clientaddr.Trust(loop)(svc.Routes()))
	e.t.Cleanup(srv.Close)
	return srv
}

func newProxiedEnv(t *testing.T) *env {
	e := newEnv(t)
	e.srv.Close()
	e.srv = behindProxy(e, e.svc)
	return e
}

// with adds the client address (X-Forwarded-For) to headers.
func with(h map[string]string, addr string) map[string]string {
	out := map[string]string{"X-Forwarded-For": addr}
	for k, v := range h {
		out[k] = v
	}
	return out
}

func (e *env) loginFrom(addr, email, pass string) reply {
	e.t.Helper()
	return e.do("GET", "/login?brand=yep", with(basic(email, pass), addr), nil)
}

func retryAfter(t *testing.T, r reply) time.Duration {
	t.Helper()
	n, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || n < 1 {
		t.Fatalf("429 without a Retry-After: %q (%d %v)", r.Header.Get("Retry-After"), r.Status, r.Body)
	}
	return time.Duration(n) * time.Second
}

// 30 wrong passwords for one account, each from another address (so only the
// account's limit counts): 401 for the first LoginFreePerAccount, then 429 with
// Retry-After and a lock that doubles after every further failure up to
// LockMax; while locked even the right password is refused; the lock ends by
// itself, and a successful login clears the failures. An unknown account
// answers the same.
func TestLoginIsThrottledPerAccountWithGrowingLocks(t *testing.T) {
	e := newProxiedEnv(t)
	const account = "revenda@yep.demo"
	wrong, locks := 0, []time.Duration{}
	addr := func() string { return fmt.Sprintf("198.51.100.%d", wrong+1) }
	for wrong < 30 {
		r := e.loginFrom(addr(), account, "Errada@123")
		switch r.Status {
		case 401:
			wrong++
			continue
		case 429:
		default:
			t.Fatalf("wrong password %d: %d %v", wrong+1, r.Status, r.Body)
		}
		if wrong < auth.LoginFreePerAccount {
			t.Fatalf("locked after %d failures, want %d free", wrong, auth.LoginFreePerAccount)
		}
		wait := retryAfter(t, r)
		// The right password is refused while locked, with the same answer.
		right := e.loginFrom(addr(), account, demoPassword)
		if right.Status != 429 || right.Body["message"] != r.Body["message"] {
			t.Fatalf("right password while locked: %d %v", right.Status, right.Body)
		}
		locks = append(locks, wait)
		e.now = e.now.Add(wait - time.Second)
		if r := e.loginFrom(addr(), account, demoPassword); r.Status != 429 {
			t.Fatalf("a second before the lock ends: %d %v", r.Status, r.Body)
		}
		e.now = e.now.Add(time.Second)
	}
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute}
	for len(want) < 30-auth.LoginFreePerAccount {
		want = append(want, auth.LockMax)
	}
	if fmt.Sprint(locks) != fmt.Sprint(want) {
		t.Errorf("locks %v, want %v", locks, want)
	}
	// Locked now (the 30th failure): the message says so, names the wait and
	// is the same for an account that does not exist.
	locked := e.loginFrom("203.0.113.1", account, demoPassword)
	if locked.Status != 429 || locked.Body["message"] != fmt.Sprintf(auth.MsgAccountLocked, "15 minutos") || retryAfter(t, locked) != auth.LockMax {
		t.Fatalf("locked account: %d %v %v", locked.Status, locked.Body, locked.Header.Get("Retry-After"))
	}
	for i := 0; i < auth.LoginFreePerAccount; i++ {
		if r := e.loginFrom(fmt.Sprintf("203.0.113.%d", 10+i), "ninguem@yep.demo", "Errada@123"); r.Status != 401 {
			t.Fatalf("unknown account, attempt %d: %d %v", i+1, r.Status, r.Body)
		}
	}
	unknown := e.loginFrom("203.0.113.20", "ninguem@yep.demo", "Errada@123")
	if unknown.Status != 429 || unknown.Body["message"] != fmt.Sprintf(auth.MsgAccountLocked, "30 segundos") || unknown.Header.Get("Retry-After") != "30" {
		t.Errorf("unknown account locked: %d %v", unknown.Status, unknown.Body)
	}
	// The lock ends by itself; the right password then works and clears the count.
	e.now = e.now.Add(auth.LockMax)
	if r := e.loginFrom("203.0.113.2", account, demoPassword); r.Status != 200 {
		t.Fatalf("after the lock: %d %v", r.Status, r.Body)
	}
	for i := 0; i < auth.LoginFreePerAccount-1; i++ {
		if r := e.loginFrom("203.0.113.3", account, "Errada@123"); r.Status != 401 {
			t.Fatalf("failures not cleared by the login: attempt %d: %d %v", i+1, r.Status, r.Body)
		}
	}
	if r := e.loginFrom("203.0.113.3", account, demoPassword); r.Status != 200 {
		t.Errorf("fifth attempt, right password: %d %v", r.Status, r.Body)
	}
}

// A locked account does not lock another account, nor the address for other
// accounts; a locked address does not lock the account for other addresses.
func TestLoginLocksLeaveOtherAccountsAndAddressesAlone(t *testing.T) {
	e := newProxiedEnv(t)
	for i := 0; i < auth.LoginFreePerAccount; i++ {
		e.loginFrom("198.51.100.1", "revenda@yep.demo", "Errada@123")
	}
	if r := e.loginFrom("198.51.100.1", "revenda@yep.demo", demoPassword); r.Status != 429 {
		t.Fatalf("account not locked: %d %v", r.Status, r.Body)
	}
	if r := e.loginFrom("198.51.100.1", "representante@yep.demo", demoPassword); r.Status != 200 {
		t.Errorf("another account from the same address: %d %v", r.Status, r.Body)
	}
	if r := e.do("GET", "/login?brand=nordata", with(basic("revenda@yep.demo", demoPassword), "198.51.100.1"), nil); r.Status == 429 {
		t.Errorf("the same login at another brand is another account: %d %v", r.Status, r.Body)
	}

	// One address tries one wrong password on each of many accounts (password
	// spraying): after LoginFreePerAddress failures it is locked, for every
	// account; other addresses are not.
	for i := 0; i < auth.LoginFreePerAddress; i++ {
		if r := e.loginFrom("192.0.2.7", fmt.Sprintf("alvo%d@yep.demo", i), "Errada@123"); r.Status != 401 {
			t.Fatalf("spray %d: %d %v", i+1, r.Status, r.Body)
		}
	}
	r := e.loginFrom("192.0.2.7", "vendedor1@yep.demo", demoPassword)
	if r.Status != 429 || r.Body["message"] != fmt.Sprintf(auth.MsgAddressLocked, "30 segundos") || r.Header.Get("Retry-After") != "30" {
		t.Errorf("locked address: %d %v", r.Status, r.Body)
	}
	if r := e.loginFrom("192.0.2.8", "vendedor1@yep.demo", demoPassword); r.Status != 200 {
		t.Errorf("another address: %d %v", r.Status, r.Body)
	}
	// The address's lock was not counted against the account.
	for i := 0; i < auth.LoginFreePerAccount-1; i++ {
		if r := e.loginFrom("192.0.2.9", "vendedor1@yep.demo", "Errada@123"); r.Status != 401 {
			t.Fatalf("account after the address lock, attempt %d: %d", i+1, r.Status)
		}
	}
}

// Two API replicas on one database share the count.
func TestLoginLimitIsSharedByReplicas(t *testing.T) {
	e := newProxiedEnv(t)
	other := *e.svc
	two := behindProxy(e, &other)
	one := e.srv
	for i := 0; i < auth.LoginFreePerAccount; i++ {
		e.srv = []*httptest.Server{one, two}[i%2]
		if r := e.loginFrom("198.51.100.1", "revenda@yep.demo", "Errada@123"); r.Status != 401 {
			t.Fatalf("attempt %d: %d", i+1, r.Status)
		}
	}
	for _, srv := range []*httptest.Server{one, two} {
		e.srv = srv
		if r := e.loginFrom("198.51.100.1", "revenda@yep.demo", demoPassword); r.Status != 429 {
			t.Errorf("replica %s: %d %v", srv.URL, r.Status, r.Body)
		}
	}
}

// A burst of simultaneous wrong passwords cannot outrun the count.
func TestSimultaneousLoginsCannotOutrunTheCount(t *testing.T) {
	e := newProxiedEnv(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.loginFrom(fmt.Sprintf("198.51.100.%d", i+1), "revenda@yep.demo", "Errada@123")
			mu.Lock()
			statuses[r.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if statuses[401] != auth.LoginFreePerAccount || statuses[429] != 20-auth.LoginFreePerAccount {
		t.Errorf("20 simultaneous wrong passwords: %v, want %d × 401", statuses, auth.LoginFreePerAccount)
	}
}

// Many people behind one address (an office's NAT) logging in at the same
// moment are not locked out: an address counts failed attempts, not attempts
// in flight. (Counted when they started, 30 simultaneous right passwords from
// one address locked it after LoginFreePerAddress.)
func TestSimultaneousGoodLoginsFromOneAddressAreNotLocked(t *testing.T) {
	e := newProxiedEnv(t)
	// At most LoginFreePerAccount at once per account: an account's attempts
	// count when they start (TestSimultaneousLoginsCannotOutrunTheCount).
	users := []string{"revenda@yep.demo", "representante@yep.demo", "vendedor1@yep.demo", "vendedor2@yep.demo", "suporte@yep.demo", "multi@yep.demo"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	n := len(users) * auth.LoginFreePerAccount // 30, over LoginFreePerAddress (20)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.loginFrom("198.51.100.7", users[i%len(users)], demoPassword)
			mu.Lock()
			statuses[r.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if statuses[200] != n {
		t.Errorf("%d simultaneous right passwords from one address: %v, want %d × 200", n, statuses, n)
	}
}

// A password reset clears the account's lock.
func TestPasswordResetClearsTheLoginLock(t *testing.T) {
	e := newProxiedEnv(t)
	for i := 0; i < auth.LoginFreePerAccount; i++ {
		e.loginFrom("198.51.100.1", "revenda@yep.demo", "Errada@123")
	}
	if r := e.loginFrom("198.51.100.1", "revenda@yep.demo", demoPassword); r.Status != 429 {
		t.Fatalf("not locked: %d", r.Status)
	}
	if r := e.do("POST", "/auth/reset_password", with(nil, "198.51.100.1"), map[string]string{"company": "yep", "email": "Revenda@yep.demo"}); r.Status != 204 {
		t.Fatalf("reset request: %d %v", r.Status, r.Body)
	}
	link, _ := url.Parse(e.mail.last(t))
	if r := e.do("POST", "/auth/update_password", with(nil, "198.51.100.1"),
		map[string]string{"token": link.Query().Get("token"), "password": "Redefinida@9", "confirmation": "Redefinida@9"}); r.Status != 200 {
		t.Fatalf("reset: %d %v", r.Status, r.Body)
	}
	if r := e.loginFrom("198.51.100.1", "revenda@yep.demo", "Redefinida@9"); r.Status != 200 {
		t.Errorf("login after the reset: %d %v", r.Status, r.Body)
	}
}

// Refused refresh calls and unusable reset links are throttled per address; a
// reset link can be asked ResetRequestsPerAccount times an hour per e-mail.
func TestRefreshAndResetLinksAreThrottled(t *testing.T) {
	e := newProxiedEnv(t)
	_, refresh := e.login("revenda@yep.demo", "yep")
	for i := 0; i < auth.RefreshFreePerAddress; i++ {
		if r := e.do("GET", "/yep/auth/refresh_token", with(bearer(fmt.Sprintf("forjado-%d", i), ""), "198.51.100.1"), nil); r.Status != 401 {
			t.Fatalf("forged refresh %d: %d", i+1, r.Status)
		}
	}
	r := e.do("GET", "/yep/auth/refresh_token", with(bearer(refresh, ""), "198.51.100.1"), nil)
	if r.Status != 429 || r.Body["message"] != fmt.Sprintf(auth.MsgRefreshLocked, "30 segundos") || r.Header.Get("Retry-After") != "30" {
		t.Errorf("refresh from a locked address: %d %v", r.Status, r.Body)
	}
	if r := e.do("GET", "/yep/auth/refresh_token", with(bearer(refresh, ""), "198.51.100.2"), nil); r.Status != 200 {
		t.Errorf("refresh from another address: %d %v", r.Status, r.Body)
	}

	for i := 0; i < auth.ResetTokenFreePerAddress; i++ {
		path, body := "/auth/reset_password/check", map[string]string{"token": fmt.Sprintf("forjado-%d", i)}
		want := 410
		if i%2 == 1 {
			path, body["password"], want = "/auth/update_password", "Forjada@123", 400
		}
		if r := e.do("POST", path, with(nil, "198.51.100.3"), body); r.Status != want {
			t.Fatalf("forged reset link %d: %d %v", i+1, r.Status, r.Body)
		}
	}
	for _, path := range []string{"/auth/reset_password/check", "/auth/update_password"} {
		r := e.do("POST", path, with(nil, "198.51.100.3"), map[string]string{"token": "forjado", "password": "Forjada@123"})
		if r.Status != 429 || r.Body["message"] != fmt.Sprintf(auth.MsgResetTokenLocked, "30 segundos") || r.Header.Get("Retry-After") != "30" {
			t.Errorf("%s from a locked address: %d %v", path, r.Status, r.Body)
		}
	}

	for i := 0; i < auth.ResetRequestsPerAccount; i++ {
		if r := e.do("POST", "/auth/reset_password", with(nil, fmt.Sprintf("203.0.113.%d", i+1)), map[string]string{"company": "yep", "email": "revenda@yep.demo"}); r.Status != 204 {
			t.Fatalf("reset request %d: %d %v", i+1, r.Status, r.Body)
		}
	}
	r = e.do("POST", "/auth/reset_password", with(nil, "203.0.113.99"), map[string]string{"company": "yep", "email": " REVENDA@yep.demo"})
	if r.Status != 429 || r.Body["message"] != fmt.Sprintf(auth.MsgResetAccountMany, "60 minutos") || r.Header.Get("Retry-After") != "3600" {
		t.Errorf("reset request over the account's limit: %d %v %q", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	if r := e.do("POST", "/auth/reset_password", with(nil, "203.0.113.99"), map[string]string{"company": "yep", "email": "representante@yep.demo"}); r.Status != 204 {
		t.Errorf("another account: %d %v", r.Status, r.Body)
	}
}
