// Package postfix runs a Postfix of its own, for the tests and the chaos
// program: Debian's /usr/sbin/postfix, configured as strictly as the big mail
// providers' servers (main.cf below), listening on a free loopback port, with
// its configuration, queue, data and mailboxes under a temporary directory. It
// never touches the machine's Postfix (/etc/postfix, /var/spool/postfix, port 25).
//
// Every address of every domain is delivered to one Maildir, read back by
// recipient (Mailbox), except the local parts starting with "desconhecido",
// which Postfix refuses as a real server refuses a mailbox that does not exist
// (550 5.1.1 User unknown). A policy service in this process answers each RCPT
// TO, so a caller can make the server answer a temporary 451 (DeferFor, Defer,
// Mailbox.DeferNext) or hold its answer (Mailbox.Hold) without reloading Postfix.
//
// The master process starts as root (it needs to, and drops to the postfix user
// and postdrop group Debian's package created); it dies with the process that
// started it. Production code never imports this package.
package postfix

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"oportuna/internal/dev/devenv"
	"oportuna/internal/stack/proc"
)

// Domain is the domain of the addresses NewMailbox and Unknown make; any other
// domain is delivered too.
const Domain = "cliente.example"

// Hostname is the server's name, in its greeting and its replies.
const Hostname = "mx.cliente.example"

// Binary is Debian's postfix command; Start fails with what to do when it is missing.
const Binary = "/usr/sbin/postfix"

// Server is a running Postfix instance.
type Server struct {
	Host string // 127.0.0.1
	Port int
	Dir  string // the instance's files: conf/, queue/, data/, mail/, maillog

	master *exec.Cmd
	exited chan struct{}
	policy *policyServer

	readMu sync.Mutex
	read   map[string]*Message // delivered files already parsed, by path
}

// Start configures and starts an instance; Close stops it and removes its files.
func Start() (*Server, error) {
	if _, err := os.Stat(Binary); err != nil {
		return nil, fmt.Errorf("postfix: %s not found: the mail tests deliver to a real Postfix; "+
			"`make test` installs Debian's package, by hand: apt-get install postfix (%w)", Binary, err)
	}
	if os.Geteuid() != 0 {
		return nil, errors.New("postfix: the master process must start as root (it drops to the postfix user): run the tests as root")
	}
	owner, err := user.Lookup("postfix")
	if err != nil {
		return nil, fmt.Errorf("postfix: user postfix (mail_owner) missing: reinstall Debian's postfix package: %w", err)
	}
	if _, err := user.LookupGroup("postdrop"); err != nil {
		return nil, fmt.Errorf("postfix: group postdrop (setgid_group) missing: reinstall Debian's postfix package: %w", err)
	}
	daemonDir, err := postconf("-dh", "daemon_directory")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "oportuna-postfix-")
	if err != nil {
		return nil, err
	}
	s := &Server{Host: "127.0.0.1", Dir: dir, read: map[string]*Message{}}
	fail := func(err error) (*Server, error) {
		s.Close()
		return nil, err
	}
	// Postfix's daemons run as the postfix user: it must reach every path below.
	if err := os.Chmod(dir, 0o755); err != nil {
		return fail(err)
	}
	uid, _ := strconv.Atoi(owner.Uid)
	gid, _ := strconv.Atoi(owner.Gid)
	for _, d := range []struct {
		name  string
		owned bool
	}{{"conf", false}, {"queue", false}, {"data", true}, {"mail", true}} {
		p := filepath.Join(dir, d.name)
		if err := os.Mkdir(p, 0o755); err != nil {
			return fail(err)
		}
		if d.owned {
			if err := os.Chown(p, uid, gid); err != nil {
				return fail(err)
			}
		}
	}
	if s.policy, err = startPolicy(); err != nil {
		return fail(err)
	}
	if err := s.writeFile("conf/main.cf", mainCF(dir, uid, gid, s.policy.addr())); err != nil {
		return fail(err)
	}
	if err := s.writeFile("conf/mailboxes", mailboxesMap); err != nil {
		return fail(err)
	}
	// A port is free when asked and may be taken before the master binds it
	// (other tests run beside): try again on another.
	var last error
	for try := 0; try < 5; try++ {
		if last = s.startMaster(daemonDir); last == nil {
			return s, nil
		}
	}
	return fail(last)
}

func postconf(args ...string) (string, error) {
	out, err := exec.Command("/usr/sbin/postconf", args...).Output()
	if err != nil {
		return "", fmt.Errorf("postfix: postconf %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

func (s *Server) writeFile(name, content string) error {
	return os.WriteFile(filepath.Join(s.Dir, name), []byte(content), 0o644)
}

// mainCF is the instance's main.cf (parameters: Postfix Configuration
// Parameters, https://www.postfix.org/postconf.5.html; strict_rfc821_envelopes
// "Require that addresses received in SMTP MAIL FROM and RCPT TO commands are
// enclosed with <>"). The restrictions are what strict providers
// apply to mail from the Internet; the client is treated as a stranger
// (permit_mynetworks appears nowhere), as a provider's MX treats the portal.
// Not used, because they need DNS and the tests run offline:
// reject_unknown_sender_domain and reject_unknown_recipient_domain (no A/MX
// lookup answers here, so Postfix would answer 450 4.1.8 to every e-mail; the
// test domains are RFC 2606 .example names that never resolve),
// reject_unknown_helo_hostname, reject_unknown_client_hostname, SPF, DKIM and
// DMARC checks (DNS records of the sender's domain).
func mainCF(dir string, uid, gid int, policy string) string {
	return fmt.Sprintf(`# Written by oportuna/internal/postfix: a throw-away instance for tests.
compatibility_level = 3.6
queue_directory = %[1]s/queue
data_directory = %[1]s/data
mail_owner = postfix
setgid_group = postdrop
maillog_file = %[1]s/maillog
maillog_file_prefixes = %[1]s
myhostname = %[2]s
mydomain = %[3]s
myorigin = $myhostname
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
local_recipient_maps =
biff = no

# RFC 5321 syntax, strictly: MAIL FROM:<addr> and RCPT TO:<addr> with the
# angle brackets (501 5.1.7 / 501 5.1.3 without), a HELO/EHLO first, naming a
# fully qualified host or an address literal, fully qualified addresses, no
# commands sent ahead of replies unless PIPELINING allows it, no bare LF
# (SMTP smuggling), no 8-bit body without a MIME declaration, no VRFY.
# (Not strict_7bit_headers: Postfix would refuse its own Received header of an
# SMTPUTF8 message, whose UTF-8 headers RFC 6532 allows.)
strict_rfc821_envelopes = yes
smtpd_helo_required = yes
smtpd_helo_restrictions = reject_invalid_helo_hostname, reject_non_fqdn_helo_hostname
smtpd_sender_restrictions = reject_non_fqdn_sender
smtpd_relay_restrictions = reject_unauth_destination
smtpd_recipient_restrictions = reject_non_fqdn_recipient, check_policy_service inet:%[4]s
smtpd_data_restrictions = reject_unauth_pipelining
smtpd_forbid_unauth_pipelining = yes
smtpd_forbid_bare_newline = yes
smtpd_forbid_bare_newline_exclusions =
strict_8bitmime_body = yes
disable_vrfy_command = yes
smtpd_reject_unlisted_recipient = yes

# Every domain is delivered here, into one Maildir (mail/inbox/), read back by
# the Delivered-To header; mailboxes refuses the local parts "desconhecido…".
virtual_mailbox_domains = static:all
virtual_mailbox_base = %[1]s/mail
virtual_mailbox_maps = regexp:%[1]s/conf/mailboxes
virtual_uid_maps = static:%[5]d
virtual_gid_maps = static:%[6]d
# Nothing leaves the instance.
default_transport = discard
relay_transport = discard
`, dir, Hostname, Domain, policy, uid, gid)
}

// mailboxesMap lists every address as a mailbox, in the Maildir inbox/, except
// the local parts starting with "desconhecido" (Postfix then answers 550 5.1.1
// User unknown in virtual mailbox table). virtual(8) allows no $n
// substitution here, hence one Maildir for all.
const mailboxesMap = `if !/^desconhecido/
/@/	inbox/
endif
`

// masterCF runs Debian's services without chroot, and smtpd on port.
func masterCF(port int) string {
	return fmt.Sprintf(`# Written by oportuna/internal/postfix.
127.0.0.1:%d inet n - n - - smtpd
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
virtual   unix  -       n       n       -       -       virtual
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
`, port)
}

// startMaster writes master.cf for a free port, checks the instance (postfix
// check creates the queue's directories) and runs the master in the
// foreground until Close; it returns once the server greets on its port.
func (s *Server) startMaster(daemonDir string) error {
	port, err := devenv.FreePort()
	if err != nil {
		return err
	}
	if err := s.writeFile("conf/master.cf", masterCF(port)); err != nil {
		return err
	}
	conf := filepath.Join(s.Dir, "conf")
	if out, err := exec.Command(Binary, "-c", conf, "check").CombinedOutput(); err != nil {
		return fmt.Errorf("postfix check: %w\n%s%s", err, out, s.Log())
	}
	var out bytes.Buffer
	cmd := exec.Command(filepath.Join(daemonDir, "master"), "-c", conf, "-s")
	cmd.Stdout, cmd.Stderr = &out, &out
	// The master and its children die with this process, whatever ends it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("postfix: start master: %w", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.master, s.exited, s.Port = cmd, exited, port
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := s.greets(); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			s.stopMaster()
			return fmt.Errorf("postfix: no greeting on 127.0.0.1:%d after 30 s: %v\n%s%s", port, err, out.String(), s.Log())
		}
		select {
		case <-exited:
			s.master = nil
			return fmt.Errorf("postfix: the master exited at start (%s)\n%s%s", cmd.ProcessState, out.String(), s.Log())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// greets connects and expects this instance's 220 greeting.
func (s *Server) greets() error {
	c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "220 "+Hostname+" ") {
		return fmt.Errorf("not this instance's greeting: %q", line)
	}
	_, _ = c.Write([]byte("QUIT\r\n"))
	return nil
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// Log is the instance's log (maillog): connections, rejections, deliveries.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "maillog"))
	return string(b)
}

func (s *Server) stopMaster() {
	if s.master == nil {
		return
	}
	// SIGTERM: the master passes it on to its children and exits; it leads
	// its process group.
	proc.StopGroup(s.master, s.exited, syscall.SIGTERM, 10*time.Second)
	s.master = nil
}

// Close stops the instance and removes its files.
func (s *Server) Close() {
	s.stopMaster()
	if s.policy != nil {
		s.policy.close()
	}
	if s.Dir != "" {
		_ = os.RemoveAll(s.Dir)
	}
}

// DeferFor makes the server answer every RCPT TO with a temporary 451 for d
// (an outage of the mail provider, greylisting); nothing is delivered meanwhile.
func (s *Server) DeferFor(d time.Duration) { s.policy.deferUntil(time.Now().Add(d)) }

// Defer turns the temporary 451 answer to every RCPT TO on or off.
func (s *Server) Defer(on bool) {
	if on {
		s.policy.deferUntil(time.Now().Add(100 * 365 * 24 * time.Hour))
	} else {
		s.policy.deferUntil(time.Time{})
	}
}

// Deferred counts the RCPT TO commands answered with a temporary 451 so far.
func (s *Server) Deferred() int { return s.policy.deferredCount() }

// Dial opens an SMTP conversation with the instance and reads its greeting
// (for tests that speak SMTP by hand).
func (s *Server) Dial(ctx context.Context) (*Conversation, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", s.Addr())
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl)
	} else {
		_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	}
	cv := &Conversation{c: c, r: bufio.NewReader(c)}
	if _, err := cv.reply(); err != nil {
		c.Close()
		return nil, err
	}
	return cv, nil
}

// Conversation is a hand-driven SMTP session.
type Conversation struct {
	c net.Conn
	r *bufio.Reader
}

// Cmd sends one command line and returns the server's reply (every line, joined by "\n").
func (cv *Conversation) Cmd(line string) (string, error) {
	if _, err := cv.c.Write([]byte(line + "\r\n")); err != nil {
		return "", err
	}
	return cv.reply()
}

func (cv *Conversation) reply() (string, error) {
	var lines []string
	for {
		l, err := cv.r.ReadString('\n')
		if err != nil {
			return strings.Join(lines, "\n"), err
		}
		l = strings.TrimRight(l, "\r\n")
		lines = append(lines, l)
		if len(l) < 4 || l[3] != '-' {
			return strings.Join(lines, "\n"), nil
		}
	}
}

// Close ends the conversation (QUIT).
func (cv *Conversation) Close() error {
	_, _ = cv.Cmd("QUIT")
	return cv.c.Close()
}
