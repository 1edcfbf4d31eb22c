package postfix

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/mail"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// Message is one delivered copy: Postfix delivers a copy per recipient.
type Message struct {
	DeliveredTo string // the envelope recipient of this copy (virtual(8)'s Delivered-To)
	ReturnPath  string // the envelope sender (MAIL FROM), without angle brackets
	MessageID   string // without angle brackets
	Header      mail.Header
	Raw         []byte // as delivered, with Postfix's Return-Path, Delivered-To and Received
	File        string
	At          time.Time // when it was delivered (the file's time)
}

var seq atomic.Int64

// Address makes an address of Domain no other call returns, from name (a test's
// name, say) for legibility.
func Address(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	local := strings.TrimRight(b.String(), "-")
	if len(local) > 40 {
		local = strings.TrimRight(local[:40], "-")
	}
	if local == "" {
		local = "caixa"
	}
	return fmt.Sprintf("%s-%d@%s", local, seq.Add(1), Domain)
}

// Unknown is an address the server refuses at RCPT TO with 550 5.1.1 (User
// unknown in virtual mailbox table), as a provider refuses a mailbox that does not exist.
func Unknown(name string) string { return "desconhecido-" + Address(name) }

// Mailbox is one recipient's delivered messages and the server's answers to it.
type Mailbox struct {
	Address string
	s       *Server
}

// NewMailbox is a mailbox no one else uses (Address(name)).
func (s *Server) NewMailbox(name string) *Mailbox { return s.Mailbox(Address(name)) }

// Mailbox reads the messages delivered to addr (any letter case).
func (s *Server) Mailbox(addr string) *Mailbox {
	return &Mailbox{Address: strings.ToLower(addr), s: s}
}

func (m *Mailbox) match(msg Message) bool { return msg.DeliveredTo == m.Address }

// Messages are the copies delivered to the mailbox, oldest first.
func (m *Mailbox) Messages() ([]Message, error) { return m.s.Select(m.match) }

// Wait waits until at least n messages were delivered to the mailbox and
// returns them all, or fails when ctx ends first.
func (m *Mailbox) Wait(ctx context.Context, n int) ([]Message, error) {
	return m.s.Wait(ctx, m.match, n)
}

// DeferNext makes the server answer the next n RCPT TO of this address with a
// temporary 451 (greylisting, a full mailbox server), then accept it again.
func (m *Mailbox) DeferNext(n int) { m.s.policy.deferNext(m.Address, n) }

// Hold keeps the server's answers to RCPT TO of this address waiting until
// release is called (or the server closes): a slow or stuck server. reached
// is closed when the first such RCPT TO arrived.
func (m *Mailbox) Hold() (reached <-chan struct{}, release func()) { return m.s.policy.hold(m.Address) }

// Select returns the delivered copies match keeps, oldest first.
func (s *Server) Select(match func(Message) bool) ([]Message, error) {
	all, err := s.Messages()
	if err != nil {
		return nil, err
	}
	var out []Message
	for _, msg := range all {
		if match(msg) {
			out = append(out, msg)
		}
	}
	return out, nil
}

// Wait waits until at least n delivered copies match and returns them all.
// Delivery follows the server's 250 within milliseconds, through its queue.
func (s *Server) Wait(ctx context.Context, match func(Message) bool, n int) ([]Message, error) {
	for {
		got, err := s.Select(match)
		if err != nil || len(got) >= n {
			return got, err
		}
		select {
		case <-ctx.Done():
			return got, fmt.Errorf("postfix: %d message(s) delivered, want %d: %w", len(got), n, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Drain waits until the server's queue is empty: every message it accepted
// (answered 250 to) has been delivered, so Messages is complete.
func (s *Server) Drain(ctx context.Context) error {
	queue := filepath.Join(s.Dir, "queue")
	for {
		n := 0
		for _, q := range []string{"maildrop", "incoming", "active", "deferred", "hold"} {
			_ = filepath.WalkDir(filepath.Join(queue, q), func(_ string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					n++
				}
				return nil
			})
		}
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("postfix: %d message(s) still queued: %w\n%s", n, ctx.Err(), s.Log())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Messages are every copy delivered so far, oldest first.
func (s *Server) Messages() ([]Message, error) {
	s.readMu.Lock()
	defer s.readMu.Unlock()
	inbox := filepath.Join(s.Dir, "mail", "inbox")
	for _, sub := range []string{"new", "cur"} {
		entries, err := os.ReadDir(filepath.Join(inbox, sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue // nothing delivered yet
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			p := filepath.Join(inbox, sub, e.Name())
			if s.read[p] != nil {
				continue
			}
			msg, err := readMessage(p)
			if err != nil {
				return nil, err
			}
			s.read[p] = msg
		}
	}
	out := make([]Message, 0, len(s.read))
	for _, msg := range s.read {
		out = append(out, *msg)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].File < out[j].File
	})
	return out, nil
}

func readMessage(path string) (*Message, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	pm, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("postfix: delivered file %s: %w", path, err)
	}
	trim := func(s string) string { return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "<"), ">") }
	return &Message{
		DeliveredTo: strings.ToLower(strings.TrimSpace(pm.Header.Get("Delivered-To"))),
		ReturnPath:  trim(pm.Header.Get("Return-Path")),
		MessageID:   trim(pm.Header.Get("Message-Id")),
		Header:      pm.Header,
		Raw:         raw,
		File:        filepath.Base(path),
		At:          st.ModTime(),
	}, nil
}
