package auth_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/auth"
	"oportuna/internal/ratelimit"
)

// Two tabs refresh at once with one refresh token: both get the same
// successor (and a working access token) instead of one of them being taken
// for a thief; after the grace window a replay still revokes the family.
func TestConcurrentRefreshesWithinTheGraceWindowShareTheSuccessor(t *testing.T) {
	e := newEnv(t)
	_, r1 := e.login("revenda@yep.demo", "yep")
	var wg sync.WaitGroup
	replies := make([]reply, 4)
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i] = e.do("GET", "/yep/auth/refresh_token", bearer(r1, ""), nil)
		}()
	}
	wg.Wait()
	var r2 string
	for i, res := range replies {
		rt, _ := dig(res.Body, "data", "refresh_token").(string)
		at, _ := dig(res.Body, "data", "access_token").(string)
		if res.Status != 200 || rt == "" || rt == r1 {
			t.Fatalf("refresh %d: %d %v", i, res.Status, res.Body)
		}
		if r2 == "" {
			r2 = rt
		} else if rt != r2 {
			t.Errorf("refresh %d answered another successor", i)
		}
		if p := e.do("GET", "/auth/payload", bearer(at, "yep"), nil); p.Status != 200 {
			t.Errorf("access token of refresh %d: %d", i, p.Status)
		}
	}
	var n int
	if err := e.svc.DB.QueryRow(context.Background(), `SELECT count(*) FROM refresh_tokens`).Scan(&n); err != nil || n != 2 {
		t.Errorf("%d refresh tokens stored, want 2 (the login's and one successor)", n)
	}
	// Still within the window, later: the same successor again.
	e.now = e.now.Add(auth.DefaultRefreshGrace - time.Second)
	if res := e.do("GET", "/yep/auth/refresh_token", bearer(r1, ""), nil); res.Status != 200 || dig(res.Body, "data", "refresh_token") != r2 {
		t.Fatalf("within the window: %d %v", res.Status, res.Body)
	}
	// The successor rotates normally.
	res := e.do("GET", "/yep/auth/refresh_token", bearer(r2, ""), nil)
	r3, _ := dig(res.Body, "data", "refresh_token").(string)
	if res.Status != 200 || r3 == "" || r3 == r2 {
		t.Fatalf("successor refresh: %d %v", res.Status, res.Body)
	}
	// r1's successor is used now: r1 is a replay, even inside its window.
	e.refreshRefused("yep", r1, "replay of a token whose successor was used")
	e.refreshRefused("yep", r3, "family not revoked")
}

func TestAReplayAfterTheGraceWindowRevokesTheFamily(t *testing.T) {
	e := newEnv(t)
	_, r1 := e.login("revenda@yep.demo", "yep")
	res := e.do("GET", "/yep/auth/refresh_token", bearer(r1, ""), nil)
	r2, _ := dig(res.Body, "data", "refresh_token").(string)
	if res.Status != 200 {
		t.Fatal(res.Status)
	}
	e.now = e.now.Add(auth.DefaultRefreshGrace)
	e.refreshRefused("yep", r1, "replay after the window")
	e.refreshRefused("yep", r2, "family not revoked")
}

// Prune deletes expired and used tokens and the rate-limit rows that no longer
// count, and nothing else.
func TestPruneDeletesOnlyWhatExpired(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	db := e.svc.DB
	now := e.now
	var uid string
	if err := db.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'revenda@yep.demo'`).Scan(&uid); err != nil {
		t.Fatal(err)
	}
	tokens := []struct {
		name                       string
		expires                    time.Duration
		rotated, revoked, keepWant bool
	}{
		{"live", time.Hour, false, false, true},
		{"rotated-live", time.Hour, true, false, true}, // kept: its replay must still revoke the family
		{"expired", -time.Second, false, false, false},
		{"rotated-expired", -time.Second, true, false, false},
		{"revoked", time.Hour, false, true, false},
	}
	for _, tk := range tokens {
		var rotated, revoked *time.Time
		past := now.Add(-2 * time.Minute)
		if tk.rotated {
			rotated = &past
		}
		if tk.revoked {
			revoked = &past
		}
		if _, err := db.Exec(ctx, `INSERT INTO refresh_tokens (family_id, user_id, brand, token_hash, expires_at, rotated_at, revoked_at)
			VALUES (gen_random_uuid(), $1::uuid, $2, $3, $4, $5, $6)`, uid, tk.name, []byte(tk.name), now.Add(tk.expires), rotated, revoked); err != nil {
			t.Fatal(err)
		}
	}
	resets := []struct {
		name     string
		expires  time.Duration
		used     bool
		keepWant bool
	}{
		{"reset-live", time.Hour, false, true},
		{"reset-expired", -time.Second, false, false},
		{"reset-used", time.Hour, true, false},
	}
	for _, rs := range resets {
		var used *time.Time
		if rs.used {
			u := now.Add(-time.Minute)
			used = &u
		}
		if _, err := db.Exec(ctx, `INSERT INTO password_resets (token_hash, user_id, brand, expires_at, used_at) VALUES ($1, $2::uuid, 'yep', $3, $4)`,
			[]byte(rs.name), uid, now.Add(rs.expires), used); err != nil {
			t.Fatal(err)
		}
	}
	at := func(d time.Duration) func() time.Time { return func() time.Time { return now.Add(d) } }
	win := &ratelimit.Window{DB: db, Name: "t", Limit: 5, Per: time.Minute}
	for _, c := range []struct {
		key string
		at  time.Duration
	}{{"old", -61 * time.Second}, {"new", -30 * time.Second}} {
		win.Now = at(c.at)
		if _, _, err := win.Allow(ctx, c.key); err != nil {
			t.Fatal(err)
		}
	}
	bo := &ratelimit.Backoff{DB: db, Name: "t", Free: 1, Base: 10 * time.Minute, Max: 10 * time.Minute, Forget: time.Hour}
	for _, c := range []struct {
		key string
		at  time.Duration
	}{{"forgotten", -61 * time.Minute}, {"recent", -59 * time.Minute}, {"locked-long-ago", -2 * time.Hour}} {
		bo.Now = at(c.at)
		if _, _, err := bo.Attempt(ctx, c.key); err != nil {
			t.Fatal(err)
		}
	}
	// A lock that outlives Forget is kept until it ends.
	if _, err := db.Exec(ctx, `UPDATE rate_failures SET locked_until = $1 WHERE key = 't|locked-long-ago'`, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}

	p, err := auth.Prune(ctx, db, now)
	if err != nil {
		t.Fatal(err)
	}
	if p.RefreshTokens != 3 || p.ResetTokens != 2 || p.RateLimits.Hits != 1 || p.RateLimits.Failures != 1 {
		t.Errorf("pruned %+v", p)
	}
	left := func(q string) string {
		rows, _ := db.Query(ctx, q)
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		return strings.Join(out, ",")
	}
	if got := left(`SELECT brand FROM refresh_tokens ORDER BY brand`); got != "live,rotated-live" {
		t.Errorf("refresh tokens left: %s", got)
	}
	if got := left(`SELECT convert_from(token_hash, 'UTF8') FROM password_resets ORDER BY 1`); got != "reset-live" {
		t.Errorf("reset tokens left: %s", got)
	}
	if got := left(`SELECT bucket FROM rate_hits ORDER BY 1`); got != "t|new" {
		t.Errorf("rate hits left: %s", got)
	}
	if got := left(`SELECT key FROM rate_failures ORDER BY 1`); got != "t|locked-long-ago,t|recent" {
		t.Errorf("rate failures left: %s", got)
	}
}

// The token and user lookups use their indexes: with sequential scans
// disabled, each plan has an Index Cond (a predicate no index can serve plans a
// filter over a whole scan instead).
func TestLookupsByIDUseTheIndexes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	conn, err := e.svc.DB.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SET enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	id := "6f1c2a9e-0000-4000-8000-000000000000"
	for _, q := range []string{
		`SELECT id FROM refresh_tokens WHERE token_hash = '\x00'::bytea`,
		`SELECT id FROM refresh_tokens WHERE id = '` + id + `'::uuid`,
		`SELECT id FROM refresh_tokens WHERE user_id = '` + id + `'::uuid AND revoked_at IS NULL`,
		`SELECT id FROM refresh_tokens WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = '\x00'::bytea)`,
		`SELECT user_id FROM password_resets WHERE token_hash = '\x00'::bytea`,
		`SELECT user_id FROM password_resets WHERE user_id = '` + id + `'::uuid AND used_at IS NULL`,
		`SELECT id FROM users WHERE id = '` + id + `'::uuid`,
		`SELECT role FROM user_roles WHERE user_id = '` + id + `'::uuid`,
		`SELECT id FROM refresh_tokens WHERE expires_at <= now()`,
		`SELECT 1 FROM password_resets WHERE expires_at <= now()`,
	} {
		plan := explain(t, conn, q)
		if !strings.Contains(plan, "Index Cond") {
			t.Errorf("%s\n%s", q, plan)
		}
	}
	// The old form could not use them (at best it reads the whole index).
	if plan := explain(t, conn, `SELECT id FROM users WHERE id::text = '`+id+`'`); strings.Contains(plan, "Index Cond") {
		t.Errorf("id::text: %s", plan)
	}
}

func explain(t *testing.T, conn *pgxpool.Conn, q string) string {
	t.Helper()
	rows, _ := conn.Query(context.Background(), `EXPLAIN `+q)
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}
