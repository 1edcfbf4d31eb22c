package stack

import (
	"errors"
	"io"
	"log"
	"net"
	"net/mail"
	"strconv"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// SMTPSink accepts every e-mail and counts deliveries per Message-ID.
type SMTPSink struct {
	Host string
	Port int
	srv  *smtp.Server // nil while down
	mu   sync.Mutex
	byID map[string]int
	at   map[string][]time.Time
	all  int
}

// StartSMTP listens on a free loopback port.
func StartSMTP() (*SMTPSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &SMTPSink{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, byID: map[string]int{}, at: map[string][]time.Time{}}
	s.serve(ln)
	return s, nil
}

func (s *SMTPSink) serve(ln net.Listener) {
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &sinkSession{s: s}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = time.Minute, time.Minute
	srv.MaxMessageBytes = 4 << 20
	// A worker killed mid-conversation resets its connection: expected here.
	srv.ErrorLog = log.New(io.Discard, "", 0)
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
}

// Close stops listening and cuts the open connections (a mail server that
// went down: connections refused until Up).
func (s *SMTPSink) Close() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// Up listens again on the same port after Close.
func (s *SMTPSink) Up() error {
	s.mu.Lock()
	up := s.srv != nil
	s.mu.Unlock()
	if up {
		return nil
	}
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // the port may linger for a moment after the close
		if ln, err = net.Listen("tcp", net.JoinHostPort(s.Host, strconv.Itoa(s.Port))); err == nil {
			s.serve(ln)
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Deliveries counts the e-mails received with the Message-ID id (no brackets).
func (s *SMTPSink) Deliveries(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

// Times are when the e-mails with the Message-ID id were accepted.
func (s *SMTPSink) Times(id string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.at[id]...)
}

// Total counts every e-mail received.
func (s *SMTPSink) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all
}

type sinkSession struct{ s *SMTPSink }

func (se *sinkSession) AuthMechanisms() []string             { return nil }
func (se *sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (se *sinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (se *sinkSession) Reset()                               {}
func (se *sinkSession) Logout() error                        { return nil }
func (se *sinkSession) Data(r io.Reader) error {
	m, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, m.Body)
	id := m.Header.Get("Message-Id")
	if len(id) > 1 && id[0] == '<' && id[len(id)-1] == '>' {
		id = id[1 : len(id)-1]
	}
	if id == "" {
		return errors.New("no Message-ID")
	}
	se.s.mu.Lock()
	se.s.byID[id]++
	se.s.at[id] = append(se.s.at[id], time.Now())
	se.s.all++
	se.s.mu.Unlock()
	return nil
}
