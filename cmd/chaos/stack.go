package main

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"oportuna/internal/stack"
)

// --- Salesforce stand-in that can go down -------------------------------------------

// switchable serves a handler on a fixed loopback address and can stop
// listening (connections refused, open connections cut) and listen again.
type switchable struct {
	addr    string
	handler http.Handler
	mu      sync.Mutex
	srv     *http.Server
}

func newSwitchable(h http.Handler) (*switchable, error) {
	s := &switchable{addr: fmt.Sprintf("127.0.0.1:%d", stack.FreePort()), handler: h}
	return s, s.up()
}

func (s *switchable) url() string { return "http://" + s.addr }

func (s *switchable) up() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return nil
	}
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // the port may linger for a moment after the close
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("listen %s: %w", s.addr, err)
	}
	srv := &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	s.srv = srv
	return nil
}

func (s *switchable) down() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		_ = s.srv.Close()
		s.srv = nil
	}
}
