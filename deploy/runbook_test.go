package deploy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	devstack "oportuna/internal/stack"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/workflows"
)

// runbookSections are the parts of docs/operations.md whose commands an
// operator runs against a running portal; their every `temporal` command,
// `bin/oportuna` command and SQL statement is run here.
var runbookSections = []string{"## Task queues", "## Temporal UI runbook", "## Reconciliation", "## Changing the workflow safely"}

// runbookStep is one command of the runbook as written: a shell command, SQL,
// or a Temporal UI list filter (fenced without a language, run through
// `temporal workflow count --query`).
type runbookStep struct {
	kind string // "sh", "sql", "filter"
	text string
	line int
}

var (
	fenceRE = regexp.MustCompile("^```(\\w*)\\s*$")
	spanRE  = regexp.MustCompile("`([^`]+)`")
	spaceRE = regexp.MustCompile(`\s+`)
)

// runbookCommands reads the runbook sections of docs/operations.md in order.
func runbookCommands(t *testing.T) []runbookStep {
	t.Helper()
	var steps []runbookStep
	in := false
	lines := strings.Split(string(readFile(t, "docs/operations.md")), "\n")
	var fence string
	var fenced []string
	var para []string
	paraLine := 0
	flushPara := func() {
		text := spaceRE.ReplaceAllString(strings.Join(para, " "), " ")
		for _, m := range spanRE.FindAllStringSubmatch(text, -1) {
			c := strings.TrimSpace(m[1])
			switch {
			case strings.HasPrefix(c, "temporal "), strings.HasPrefix(c, "PAYLOAD_KEY_FILE="), strings.HasPrefix(c, "bin/oportuna "):
				steps = append(steps, runbookStep{"sh", c, paraLine})
			case strings.HasPrefix(c, "UPDATE "), strings.HasPrefix(c, "SELECT "):
				steps = append(steps, runbookStep{"sql", c, paraLine})
			}
		}
		para = nil
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "## ") {
			flushPara()
			in = false
			for _, s := range runbookSections {
				in = in || strings.HasPrefix(l, s)
			}
			continue
		}
		if !in {
			continue
		}
		if m := fenceRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			if fence == "" {
				flushPara()
				fence, fenced = "lang:"+m[1], nil
				continue
			}
			steps = append(steps, fencedSteps(strings.TrimPrefix(fence, "lang:"), fenced, i)...)
			fence = ""
			continue
		}
		if fence != "" {
			fenced = append(fenced, l)
			continue
		}
		if strings.TrimSpace(l) == "" {
			flushPara()
			continue
		}
		if len(para) == 0 {
			paraLine = i + 1
		}
		para = append(para, l)
	}
	flushPara()
	return steps
}

func fencedSteps(lang string, lines []string, end int) []runbookStep {
	var steps []runbookStep
	switch lang {
	case "sh":
		cmd := ""
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if i := strings.Index(l, "   #"); i >= 0 {
				l = strings.TrimSpace(l[:i]) // a trailing comment
			}
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			cmd += l
			if strings.HasSuffix(cmd, `\`) {
				cmd = strings.TrimSuffix(cmd, `\`) + " "
				continue
			}
			if strings.HasPrefix(cmd, "temporal ") || strings.HasPrefix(cmd, "bin/oportuna ") || strings.HasPrefix(cmd, "PAYLOAD_KEY_FILE=") {
				steps = append(steps, runbookStep{"sh", spaceRE.ReplaceAllString(cmd, " "), end})
			}
			cmd = ""
		}
	case "sql":
		var b strings.Builder
		for _, l := range lines {
			if i := strings.Index(l, "--"); i >= 0 {
				l = l[:i]
			}
			b.WriteString(l + " ")
		}
		for _, st := range strings.Split(b.String(), ";") {
			if st = strings.TrimSpace(spaceRE.ReplaceAllString(st, " ")); st != "" {
				steps = append(steps, runbookStep{"sql", st, end})
			}
		}
	case "":
		for _, l := range lines {
			if l = strings.TrimSpace(l); l != "" {
				steps = append(steps, runbookStep{"filter", l, end})
			}
		}
	}
	return steps
}

// runbookStack is `make run`'s stack (scripts/run.sh: a Temporal dev server
// with namespace default, the codec server, migrations, the demo seed, then
// `oportuna dev`) on free ports, with an SMTP server that refuses every
// connection, so that notices and e-mails retry (the runbook's failing
// e-mail) and their activities stay pending.
type runbookStack struct {
	st      *devstack.Stack
	db      *pgxpool.Pool
	tc      client.Client
	portal  string
	codec   string
	workdir string // the runbook's working directory: bin/oportuna, .data/payload_keys
	env     []string
}

func startRunbookStack(t *testing.T) *runbookStack {
	t.Helper()
	testenv.NeedsServices(t)
	ctx := testenv.Context(t)
	admin := devstack.AdminURLFromEnv(os.Getenv)
	if admin == "" {
		t.Fatal("set OPORTUNA_TEST_DATABASE_URL (a PostgreSQL server where a database may be created)")
	}
	bin := buildOportuna(t)
	dir := t.TempDir()
	st, err := devstack.Start(ctx, devstack.Options{Bin: bin, AdminURL: admin, Dir: dir, Prefix: "oportuna_runbook"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(false) })
	rs := &runbookStack{st: st, workdir: filepath.Join(dir, "work")}
	// The working directory of `make run`'s operator: the binary and the key file.
	if err := os.MkdirAll(filepath.Join(rs.workdir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(rs.workdir, "bin", "oportuna")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(rs.workdir, ".data"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rs.workdir, ".data", "payload_keys"), []byte(testenv.PayloadKeys+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	closed := devstack.FreePort() // nothing listens: SMTP refuses
	codecPort := devstack.FreePort()
	rs.codec = fmt.Sprintf("http://127.0.0.1:%d", codecPort)
	codec := exec.Command(bin, "codec-server")
	codec.Env = append(append([]string{}, st.Env...), fmt.Sprintf("CODEC_ADDR=127.0.0.1:%d", codecPort), "CODEC_CORS_ORIGIN=http://127.0.0.1:8233")
	if err := codec.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = codec.Process.Kill(); _ = codec.Wait() })
	env := append(append([]string{}, st.Env...), "JWT_SECRET=runbook-0123456789abcdef0123456789abcdef", "LOG_LEVEL=WARN",
		"SMTP_HOST=127.0.0.1", fmt.Sprintf("SMTP_PORT=%d", closed), "SMTP_FROM=portal@oportuna.example", "MAILBOX=off")
	if out, err := devstack.RunBin(ctx, bin, "seed", env); err != nil {
		t.Fatalf("oportuna seed: %v\n%s", err, out)
	}
	dev := devstack.NewProc("dev", bin, "dev", dir, env, true)
	if err := dev.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Stop(30 * time.Second) })
	rs.portal = dev.Base()
	if rs.db, err = pgxpool.New(ctx, st.DB.URL); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rs.db.Close)
	if rs.tc, err = client.Dial(client.Options{HostPort: st.Temporal.Addr, Namespace: "default", Logger: devstack.QuietTemporalLogger(),
		DataConverter: testenv.DataConverter(), FailureConverter: testenv.FailureConverter()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rs.tc.Close)
	cli, err := testenv.TemporalCLI()
	if err != nil {
		t.Fatal(err)
	}
	rs.env = append(os.Environ(), "PATH="+filepath.Dir(cli)+":"+os.Getenv("PATH"), "TEMPORAL_ADDRESS="+st.Temporal.Addr,
		"DATABASE_URL="+st.DB.URL, "HOME="+dir)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", codecPort)); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the codec server does not listen")
		}
	}
	return rs
}

// run runs a shell command as the runbook writes it, with the stack's
// addresses in the environment (the CLI reads TEMPORAL_ADDRESS) and the codec
// server's port in place of make run's 8089.
func (rs *runbookStack) run(t *testing.T, cmd string) string {
	t.Helper()
	cmd = strings.ReplaceAll(cmd, "http://127.0.0.1:8089", rs.codec)
	c := exec.Command("bash", "-o", "pipefail", "-c", cmd)
	c.Dir, c.Env = rs.workdir, rs.env
	out, err := c.CombinedOutput()
	if err != nil {
		t.Errorf("%s: %v\n%s", cmd, err, out)
	}
	return string(out)
}

// pending waits for a pending activity of the workflow with attempts under way
// and answers its activity id.
func (rs *runbookStack) pending(t *testing.T, wfID, activityType string) string {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		d, err := rs.tc.DescribeWorkflowExecution(context.Background(), wfID, "")
		if err == nil {
			for _, a := range d.GetPendingActivities() {
				if a.GetActivityType().GetName() == activityType && a.GetAttempt() >= 2 {
					return a.GetActivityId()
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no %s retrying (%v)", wfID, activityType, err)
		}
	}
}

func (rs *runbookStack) status(t *testing.T, wfID string) enumspb.WorkflowExecutionStatus {
	t.Helper()
	d, err := rs.tc.DescribeWorkflowExecution(context.Background(), wfID, "")
	if err != nil {
		t.Fatal(err)
	}
	return d.GetWorkflowExecutionInfo().GetStatus()
}

func (rs *runbookStack) runID(t *testing.T, wfID string) string {
	t.Helper()
	d, err := rs.tc.DescribeWorkflowExecution(context.Background(), wfID, "")
	if err != nil {
		t.Fatal(err)
	}
	return d.GetWorkflowExecutionInfo().GetExecution().GetRunId()
}

func (rs *runbookStack) waitStatus(t *testing.T, wfID string, want enumspb.WorkflowExecutionStatus) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); rs.status(t, wfID) != want; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s, want %s", wfID, rs.status(t, wfID), want)
		}
	}
}

// register registers an opportunity through the API as a seller of yep (its
// notice to the representatives then keeps failing: the SMTP server refuses).
func (rs *runbookStack) register(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	hc := &http.Client{Timeout: 90 * time.Second}
	tok, _, err := devstack.Login(ctx, hc, rs.portal, "yep.localhost", "yep", "vendedor1@yep.demo", "Oportuna@2026")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(devstack.Registration("yep", "11222333000181", "Runbook"))
	req, _ := http.NewRequest(http.MethodPost, rs.portal+"/api/opportunity/create", bytes.NewReader(body))
	req.Host = "yep.localhost"
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("company", "yep")
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 || !opportunity.ValidID(out.Data.ID) {
		t.Fatalf("registration: %d %v", res.StatusCode, err)
	}
	return out.Data.ID
}

// TestEveryRunbookCommandRunsAgainstMakeRunsStack: docs/operations.md,
// followed as written, works on `make run`'s stack. Every `temporal` and
// `bin/oportuna` command and every SQL statement of its runbook sections is run
// in the page's order, its placeholders (<id>, <slug>, <key>, <activity id>,
// '…', <deploy date>) filled with records the step needs; a command this test
// does not know fails it, so a new command gets a setup here. It once failed on
// the namespace `oportuna` (make run's is `default`), `workflow cancel
// --reason`, the `state` query through the codec server, and a workflow start
// whose input the workers refused in clear.
func TestEveryRunbookCommandRunsAgainstMakeRunsStack(t *testing.T) {
	steps := runbookCommands(t)
	if len(steps) < 20 {
		t.Fatalf("only %d commands found in the runbook sections", len(steps))
	}
	rs := startRunbookStack(t)
	ctx := testenv.Context(t)

	// The records the steps work on.
	var approved string
	if err := rs.db.QueryRow(ctx, `SELECT id::text FROM opportunities WHERE brand = 'yep' AND status = 'approved' ORDER BY created_at LIMIT 1`).Scan(&approved); err != nil {
		t.Fatal(err)
	}
	fresh := rs.register(t) // its notice retries (SMTP down): a pending Notify
	// A password reset: the API's own e-mail, its SendEmail workflow retrying.
	resetBody, _ := json.Marshal(map[string]string{"company": "yep", "email": "suporte@yep.demo", "redirect_url": "http://yep.localhost/"})
	req, _ := http.NewRequest(http.MethodPost, rs.portal+"/authenticator/auth/reset_password", bytes.NewReader(resetBody))
	req.Host = "yep.localhost"
	req.Header.Set("Content-Type", "application/json")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusNoContent {
		t.Fatalf("password reset request: %v %v", err, res)
	}
	var mailKey string
	for deadline := time.Now().Add(30 * time.Second); mailKey == ""; time.Sleep(200 * time.Millisecond) {
		_ = rs.db.QueryRow(ctx, `SELECT key FROM mail_outbox WHERE key LIKE 'password-reset/%' LIMIT 1`).Scan(&mailKey)
		if time.Now().After(deadline) {
			t.Fatal("no password-reset e-mail in the outbox")
		}
	}
	// A fresh make run has an approval past its SLA for the operator to find.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		n, err := rs.tc.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: `WorkflowType="Opportunity" AND OpportunityStatus="analysis" AND ApprovalOverdue=true`})
		if err == nil && n.GetCount() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no overdue approval after the seed (%v)", err)
		}
	}
	terminated := ""

	known := map[string]func(step runbookStep) map[string]string{}
	fill := func(vals map[string]string) func(runbookStep) map[string]string {
		return func(runbookStep) map[string]string { return vals }
	}
	onApproved := fill(map[string]string{"<id>": approved})
	for _, c := range []string{
		"temporal task-queue describe --task-queue oportuna-crm --task-queue-type activity --report-config",
		`temporal workflow list --query 'ExecutionStatus="Running"'`,
		`temporal workflow count --query 'WorkflowType="Opportunity" AND OpportunityStatus="analysis" AND ApprovalOverdue=true'`,
		`temporal workflow list --query 'WorkflowType="Opportunity" AND OpportunityStatus="analysis" AND ApprovalOverdue=true AND Brand="yep"'`,
		"temporal schedule describe --schedule-id oportuna-reconcile",
		"temporal schedule toggle --schedule-id oportuna-reconcile --pause --reason 'Salesforce maintenance'",
		"temporal schedule toggle --schedule-id oportuna-reconcile --unpause --reason 'back'",
		"temporal schedule trigger --schedule-id oportuna-reconcile",
		`temporal workflow list --query 'WorkflowType="Reconcile"'`,
		"SELECT id, run_at, last_seen_at, seen, kind, record_type, record_id, brand, expected, actual, fields, detail FROM reconciliation_findings WHERE resolved_at IS NULL ORDER BY last_seen_at DESC, id DESC",
		"SELECT run_at, kind, record_type, record_id, fields, detail FROM reconciliation_findings WHERE repaired ORDER BY resolved_at DESC LIMIT 50",
		"SELECT opportunity_id, brand, status, attempts, failed_at, last_attempt_at, error FROM crm_sync_failures WHERE resolved_at IS NULL ORDER BY failed_at",
	} {
		known[c] = fill(nil)
	}
	known["temporal workflow describe --workflow-id 'opportunity/<id>' --codec-endpoint http://127.0.0.1:8089"] = onApproved
	known["temporal workflow query --workflow-id 'opportunity/<id>' --name state --codec-endpoint http://127.0.0.1:8089"] = onApproved
	known["temporal workflow show --workflow-id 'opportunity/<id>' --codec-endpoint http://127.0.0.1:8089"] = onApproved
	known["temporal workflow show --workflow-id 'opportunity/<id>' --output json > h.json"] = onApproved
	known["SELECT key, status, attempts, last_error, created_at FROM mail_outbox WHERE status IN ('pending','failed','sending') ORDER BY created_at"] = fill(nil)
	// An e-mail the server refused for good, as the mailer records it (mailer.permanentPrefix):
	// this stack's SMTP only ever fails to connect, which is retried.
	known["SELECT key, status, attempts, last_error, created_at FROM mail_outbox WHERE last_error LIKE 'permanent:%' ORDER BY created_at DESC"] = func(runbookStep) map[string]string {
		if _, err := rs.db.Exec(ctx, `INSERT INTO mail_outbox (key, brand, recipients, subject, status, attempts, last_error)
			VALUES ('runbook/refused', 'nordata', '{desconhecido@nordata.example}', 'Recusado', 'failed', 1,
			        'permanent: RCPT TO: 550 5.1.1 <…>: Recipient address rejected: User unknown')
			ON CONFLICT (key) DO NOTHING`); err != nil {
			t.Fatal(err)
		}
		return nil
	}
	known["temporal activity reset --workflow-id 'mail/<key>' --activity-id <activity id>"] = func(runbookStep) map[string]string {
		return map[string]string{"<key>": mailKey, "<activity id>": rs.pending(t, workflows.MailWorkflowID(mailKey), "SendMail")}
	}
	onFreshNotice := func(runbookStep) map[string]string {
		return map[string]string{"<id>": fresh, "<activity id>": rs.pending(t, workflows.OpportunityWorkflowID(fresh), "Notify")}
	}
	known["temporal activity reset --workflow-id 'opportunity/<id>' --activity-id <activity id>"] = onFreshNotice
	known["temporal activity pause --workflow-id 'opportunity/<id>' --activity-id <activity id>"] = onFreshNotice
	known["temporal activity unpause --workflow-id 'opportunity/<id>' --activity-id <activity id>"] = onFreshNotice
	known["temporal workflow reset --workflow-id 'opportunity/<id>' --type LastWorkflowTask --reason '…'"] = fill(map[string]string{"<id>": fresh, "'…'": "'runbook test'"})
	var beforeBatch string // the run a batch reset replaces: it runs in the background
	known["temporal workflow reset --query '…' --type LastWorkflowTask --reason '…' --yes"] = func(runbookStep) map[string]string {
		beforeBatch = rs.runID(t, workflows.OpportunityWorkflowID(fresh))
		return map[string]string{"--query '…'": fmt.Sprintf(`--query 'WorkflowId="%s"'`, workflows.OpportunityWorkflowID(fresh)), "'…'": "'runbook test'"}
	}
	known["temporal workflow cancel --workflow-id 'opportunity/<id>'"] = fill(map[string]string{"<id>": fresh})
	known["UPDATE opportunities SET is_deleted = false WHERE id = '<id>'"] = func(runbookStep) map[string]string {
		rs.waitStatus(t, workflows.OpportunityWorkflowID(fresh), enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED)
		var deleted bool
		if err := rs.db.QueryRow(ctx, `SELECT is_deleted FROM opportunities WHERE id = $1`, fresh).Scan(&deleted); err != nil || !deleted {
			t.Errorf("the cancelled opportunity is not marked deleted (%v)", err)
		}
		return map[string]string{"<id>": fresh}
	}
	known["PAYLOAD_KEY_FILE=.data/payload_keys bin/oportuna adopt <id>"] = func(s runbookStep) map[string]string {
		if strings.Contains(readSectionOf(t, s.line), "## Reconciliation") {
			// The reconciliation's case: an opportunity an operator terminated.
			terminated = approved
			if err := rs.tc.TerminateWorkflow(ctx, workflows.OpportunityWorkflowID(terminated), "", "runbook test"); err != nil {
				t.Fatal(err)
			}
			return map[string]string{"<id>": terminated}
		}
		return map[string]string{"<id>": fresh}
	}
	known[`temporal workflow count --query 'WorkflowType="Opportunity" AND ExecutionStatus="Running" AND StartTime < "<deploy date>"'`] =
		fill(map[string]string{"<deploy date>": time.Now().UTC().Format(time.RFC3339)})

	seen := map[string]bool{}
	for _, s := range steps {
		if s.kind == "filter" {
			out := rs.run(t, fmt.Sprintf("temporal workflow count --query '%s'", s.text))
			if !strings.HasPrefix(out, "Total: ") {
				t.Errorf("line %d: the filter %s: %s", s.line, s.text, out)
			}
			continue
		}
		setup, ok := known[s.text]
		if !ok {
			t.Errorf("docs/operations.md line %d: %q is not run by this test: give it a setup", s.line, s.text)
			continue
		}
		seen[s.text] = true
		text := s.text
		vals := setup(s)
		keys := make([]string, 0, len(vals))
		for k := range vals {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) }) // "--query '…'" before "'…'"
		for _, k := range keys {
			text = strings.ReplaceAll(text, k, vals[k])
		}
		if s.kind == "sql" {
			rows, err := rs.db.Query(ctx, text)
			if err == nil {
				var n int
				n, err = countRows(rows)
				if err == nil && strings.Contains(text, "mail_outbox") && n == 0 {
					t.Errorf("line %d: %s found no e-mail waiting", s.line, text)
				}
			}
			if err != nil {
				t.Errorf("line %d: %s: %v", s.line, text, err)
			}
			continue
		}
		out := rs.run(t, text)
		switch {
		case strings.HasPrefix(text, "temporal workflow count --query 'WorkflowType=\"Opportunity\" AND OpportunityStatus=\"analysis\" AND ApprovalOverdue=true'"):
			if strings.TrimSpace(out) == "Total: 0" {
				t.Errorf("%s: no approval past the SLA in a fresh make run", text)
			}
		case strings.Contains(text, "--name state"):
			if !strings.Contains(out, `"status":"approved"`) {
				t.Errorf("%s: %s", text, out)
			}
		case strings.Contains(text, "bin/oportuna adopt"):
			id := strings.Fields(text)[len(strings.Fields(text))-1]
			rs.waitStatus(t, workflows.OpportunityWorkflowID(id), enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING)
		case strings.HasPrefix(text, "temporal workflow reset --query"):
			for deadline := time.Now().Add(60 * time.Second); rs.runID(t, workflows.OpportunityWorkflowID(fresh)) == beforeBatch; time.Sleep(200 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%s: the batch did not reset the workflow", text)
				}
			}
		case strings.Contains(text, "> h.json"):
			b, err := os.ReadFile(filepath.Join(rs.workdir, "h.json"))
			if err != nil || !json.Valid(b) {
				t.Errorf("%s wrote no JSON history (%v)", text, err)
			}
		}
	}
	for c := range known {
		if !seen[c] {
			t.Errorf("%q is no longer in the runbook: remove its setup", c)
		}
	}
	if terminated == "" {
		t.Error("the reconciliation's adoption of a terminated opportunity was not run")
	}
}

// readSectionOf is the `## ` heading above a line of docs/operations.md.
func readSectionOf(t *testing.T, line int) string {
	t.Helper()
	lines := strings.Split(string(readFile(t, "docs/operations.md")), "\n")
	for i := min(line, len(lines)) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "## ") {
			return lines[i]
		}
	}
	return ""
}

func countRows(rows pgx.Rows) (int, error) {
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}
