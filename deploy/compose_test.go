package deploy_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"gopkg.in/yaml.v3"

	"oportuna/config"
	"oportuna/internal/health"
	"oportuna/internal/metrics"
	"oportuna/worker"
	"oportuna/workflows"
)

// root is the repository root (tests run in deploy/).
const root = ".."

// --- compose file model -------------------------------------------------------

type composeFile struct {
	Name     string              `yaml:"name"`
	Services map[string]*service `yaml:"services"`
	Volumes  map[string]any      `yaml:"volumes"`
}

type service struct {
	Image           string       `yaml:"image"`
	Build           *build       `yaml:"build"`
	ContainerName   string       `yaml:"container_name"`
	Command         strList      `yaml:"command"`
	Entrypoint      strList      `yaml:"entrypoint"`
	Environment     envMap       `yaml:"environment"`
	Ports           []port       `yaml:"ports"`
	DependsOn       dependsOn    `yaml:"depends_on"`
	Healthcheck     *healthcheck `yaml:"healthcheck"`
	Restart         string       `yaml:"restart"`
	Profiles        []string     `yaml:"profiles"`
	Volumes         []string     `yaml:"volumes"`
	StopGracePeriod string       `yaml:"stop_grace_period"`
}

type build struct {
	Context    string `yaml:"context"`
	Dockerfile string `yaml:"dockerfile"`
}

func (b *build) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		b.Context = n.Value
		return nil
	}
	type plain build
	return n.Decode((*plain)(b))
}

// strList is a command: a list, or a string (split on spaces, as compose does
// for simple strings).
type strList []string

func (s *strList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*s = strings.Fields(n.Value)
		return nil
	}
	var l []string
	if err := n.Decode(&l); err != nil {
		return err
	}
	*s = l
	return nil
}

// envMap is environment in either form (mapping or KEY=VALUE list).
type envMap map[string]string

func (e *envMap) UnmarshalYAML(n *yaml.Node) error {
	out := envMap{}
	switch n.Kind {
	case yaml.MappingNode:
		var m map[string]*string
		if err := n.Decode(&m); err != nil {
			return err
		}
		for k, v := range m {
			out[k] = ""
			if v != nil {
				out[k] = *v
			}
		}
	case yaml.SequenceNode:
		var l []string
		if err := n.Decode(&l); err != nil {
			return err
		}
		for _, kv := range l {
			k, v, _ := strings.Cut(kv, "=")
			out[k] = v
		}
	}
	*e = out
	return nil
}

// port is a published port: "[ip:]published:target[/proto]", "target", or the
// long form. The short form is split after interpolation (resolve).
type port struct {
	Raw                       string
	HostIP, Published, Target string
}

func (p *port) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		var l struct {
			Target    any    `yaml:"target"`
			Published any    `yaml:"published"`
			HostIP    string `yaml:"host_ip"`
		}
		if err := n.Decode(&l); err != nil {
			return err
		}
		p.Target, p.HostIP = fmt.Sprint(l.Target), l.HostIP
		if l.Published != nil {
			p.Published = fmt.Sprint(l.Published)
		}
		return nil
	}
	p.Raw = n.Value
	return nil
}

// resolve interpolates and splits the short form.
func (p port) resolve(env map[string]string) (port, error) {
	if p.Raw == "" {
		return p, nil
	}
	raw, err := interpolate(p.Raw, env)
	if err != nil {
		return p, err
	}
	s, _, _ := strings.Cut(raw, "/")
	parts := strings.Split(s, ":")
	switch len(parts) {
	case 1:
		p.Target = parts[0]
	case 2:
		p.Published, p.Target = parts[0], parts[1]
	case 3:
		p.HostIP, p.Published, p.Target = parts[0], parts[1], parts[2]
	default:
		return p, fmt.Errorf("port %q", raw)
	}
	return p, nil
}

type dependency struct {
	Condition string `yaml:"condition"`
}

// dependsOn is depends_on in either form (list: condition service_started).
type dependsOn map[string]dependency

func (d *dependsOn) UnmarshalYAML(n *yaml.Node) error {
	out := dependsOn{}
	if n.Kind == yaml.SequenceNode {
		var l []string
		if err := n.Decode(&l); err != nil {
			return err
		}
		for _, s := range l {
			out[s] = dependency{Condition: "service_started"}
		}
	} else {
		var m map[string]dependency
		if err := n.Decode(&m); err != nil {
			return err
		}
		for k, v := range m {
			if v.Condition == "" {
				v.Condition = "service_started"
			}
			out[k] = v
		}
	}
	*d = out
	return nil
}

type healthcheck struct {
	Test    strList `yaml:"test"`
	Disable bool    `yaml:"disable"`
}

func (h *healthcheck) UnmarshalYAML(n *yaml.Node) error {
	var raw struct {
		Test    yaml.Node `yaml:"test"`
		Disable bool      `yaml:"disable"`
	}
	if err := n.Decode(&raw); err != nil {
		return err
	}
	h.Disable = raw.Disable
	if raw.Test.Kind == yaml.ScalarNode {
		h.Test = strList{"CMD-SHELL", raw.Test.Value}
		return nil
	}
	return raw.Test.Decode(&h.Test)
}

func parseCompose(data []byte) (*composeFile, error) {
	var c composeFile
	if err := yaml.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// --- interpolation --------------------------------------------------------------

var varRE = regexp.MustCompile(`\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// interpolate expands ${X}, ${X:-default}, ${X-default}, ${X:?message},
// ${X?message} and $X as compose does, with env as the .env file.
func interpolate(s string, env map[string]string) (string, error) {
	var firstErr error
	out := varRE.ReplaceAllStringFunc(s, func(m string) string {
		if m == "$$" {
			return "$"
		}
		g := varRE.FindStringSubmatch(m)
		name, op, arg := g[1], g[2], g[3]
		if name == "" {
			name = g[4]
		}
		v, set := env[name]
		switch op {
		case ":-":
			if v == "" {
				return arg
			}
		case "-":
			if !set {
				return arg
			}
		case ":?", "?":
			if !set || (op == ":?" && v == "") {
				if firstErr == nil {
					firstErr = fmt.Errorf("required variable %s is missing: %s", name, arg)
				}
			}
		}
		return v
	})
	return out, firstErr
}

// readEnvFile reads KEY=VALUE lines (comments and blanks skipped).
func readEnvFile(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not KEY=VALUE", path, l)
		}
		env[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return env, nil
}

// --- what the app reads ---------------------------------------------------------

var envNameRE = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)

// appVariables scans the module's Go sources (tests, the web app, the test
// environment and the stand-ins excluded) for the environment variables the
// binary reads: string literals passed to a function whose name ends in "env"
// (os.Getenv, getenv, env, intEnv, durationEnv, …), and upper-case literals
// with an underscore inside a function whose name ends in "env" (…FromEnv
// tables). It returns name → files.
func appVariables(dir string) (map[string][]string, error) {
	found := map[string][]string{}
	add := func(name, file string) {
		rel, _ := filepath.Rel(dir, file)
		for _, f := range found[name] {
			if f == rel {
				return
			}
		}
		found[name] = append(found[name], rel)
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch rel, _ := filepath.Rel(dir, p); {
			case rel == "web", rel == "deploy", rel == filepath.Join("internal", "testenv"),
				// make chaos's, make restore-drill's and make loadtest's drivers and the stack they start: test tools, never deployed.
				rel == filepath.Join("cmd", "chaos"), rel == filepath.Join("cmd", "loadtest"), rel == filepath.Join("cmd", "restoredrill"),
				rel == filepath.Join("internal", "stack"),
				strings.HasPrefix(d.Name(), "."), d.Name() == "node_modules", d.Name() == "testdata",
				// The stand-ins of the integrations (internal/dev/crmsim, cnpjsim) and the
				// other dev helpers: only in a development build (-tags dev: `oportuna dev`,
				// the tests), a deployment runs them only as an explicit demo (CRM_SIM=on),
				// with their defaults.
				rel == filepath.Join("internal", "dev"):
				if rel != "." {
					return filepath.SkipDir
				}
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != dir {
				return filepath.SkipDir // another module (a copy of the tree, a tool)
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		literal := func(e ast.Expr) (string, bool) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return "", false
			}
			s, err := strconv.Unquote(lit.Value)
			return s, err == nil && envNameRE.MatchString(s)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				var fn string
				switch f := n.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				}
				if strings.HasSuffix(strings.ToLower(fn), "env") && len(n.Args) > 0 {
					if s, ok := literal(n.Args[0]); ok {
						add(s, p)
					}
				}
			case *ast.FuncDecl:
				if n.Body != nil && strings.HasSuffix(strings.ToLower(n.Name.Name), "env") {
					ast.Inspect(n.Body, func(m ast.Node) bool {
						if e, ok := m.(ast.Expr); ok {
							if s, ok := literal(e); ok && strings.Contains(s, "_") {
								add(s, p)
							}
						}
						return true
					})
				}
			}
			return true
		})
		return nil
	})
	return found, err
}

// notDeployed are variables the binary reads that production leaves unset.
var notDeployed = map[string]string{
	"SEED_PASSWORD": "read by `oportuna seed` (demo accounts), which a deployment never runs",
	// The stand-in runs in api and worker only with CRM_SIM=on: compose sets it
	// off and requires CRM_URL (problems), and api and worker refuse to start
	// without either (TestAPIAndWorkerRefuseToStartWithoutACRM).
	"CRM_SIM_ADDR": "address of the Salesforce stand-in (`oportuna crm-sim`, `oportuna dev`), never deployed",
}

// --- the checks -----------------------------------------------------------------

// stack is what the checks compare: the compose file, the .env it is run with
// (deploy/env.example) and the variables the code reads.
type stack struct {
	c          *composeFile
	dotenv     map[string]string
	appVars    map[string][]string
	mainGo     string // cmd/oportuna/main.go, for the subcommands
	dockerfile string
	prometheus *prometheusConfig // deploy/prometheus/prometheus.yml
	// makefile and temporalConfig (deploy/temporal/config.yaml): what make
	// cluster runs, which the Temporal services must match.
	makefile       string
	temporalConfig []byte
}

// prometheusConfig is the part of prometheus.yml the checks read.
type prometheusConfig struct {
	ScrapeConfigs []struct {
		JobName      string `yaml:"job_name"`
		MetricsPath  string `yaml:"metrics_path"`
		DNSSDConfigs []struct {
			Names []string `yaml:"names"`
			Port  int      `yaml:"port"`
		} `yaml:"dns_sd_configs"`
		StaticConfigs []struct {
			Targets []string `yaml:"targets"`
		} `yaml:"static_configs"`
	} `yaml:"scrape_configs"`
}

const (
	appImageEntrypoint    = "/oportuna"
	postgresService       = "postgres"
	temporalService       = "temporal" // the frontend
	historyService        = "temporal-history"
	matchingService       = "temporal-matching"
	temporalWorkerService = "temporal-worker"
	schemaService         = "temporal-schema"
	setupService          = "temporal-setup"
	uiService             = "temporal-ui"
)

var appCommands = map[string]string{"migrate": "migrate", "api": "api", "worker": "worker", codecService: "codec-server"}

func (s *stack) env(svc, name string) (string, error) {
	raw, ok := s.c.Services[svc].Environment[name]
	if !ok {
		return "", fmt.Errorf("%s: %s is not set", svc, name)
	}
	return interpolate(raw, s.dotenv)
}

// problems runs every check and returns what is inconsistent, one line each.
func (s *stack) problems() []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }

	required := []string{postgresService, schemaService, temporalService, historyService, matchingService, temporalWorkerService,
		setupService, uiService, "migrate", "api", "worker", codecService}
	for _, name := range required {
		if s.c.Services[name] == nil {
			bad("service %s is missing", name)
		}
	}
	if len(out) > 0 {
		return out
	}
	names := make([]string, 0, len(s.c.Services))
	for n := range s.c.Services {
		names = append(names, n)
	}
	sort.Strings(names)

	// Images are pinned to a version.
	for _, n := range names {
		svc := s.c.Services[n]
		img, err := interpolate(svc.Image, s.dotenv)
		if err != nil {
			bad("%s: image: %v", n, err)
			continue
		}
		if img == "" {
			bad("%s: no image", n)
			continue
		}
		if !strings.Contains(img, "@sha256:") {
			ref := img[strings.LastIndex(img, "/")+1:]
			_, tag, ok := strings.Cut(ref, ":")
			if !ok || tag == "" || tag == "latest" {
				bad("%s: image %s is not pinned to a version (no tag or :latest)", n, img)
			}
		}
	}

	// The app's services: one image built from the Dockerfile, a known subcommand.
	appImage := s.c.Services["api"].Image
	for svcName, cmd := range appCommands {
		svc := s.c.Services[svcName]
		if svc.Build == nil || filepath.Clean(svc.Build.Context) != "." {
			bad("%s: must be built from the repository root (build: .)", svcName)
		} else if df := svc.Build.Dockerfile; df != "" && df != "Dockerfile" {
			bad("%s: built from %s, want Dockerfile", svcName, df)
		}
		if svc.Image != appImage {
			bad("%s: image %s differs from api's %s", svcName, svc.Image, appImage)
		}
		if len(svc.Command) == 0 || svc.Command[0] != cmd {
			bad("%s: command %v, want [%s]", svcName, svc.Command, cmd)
		}
		if !strings.Contains(s.mainGo, fmt.Sprintf("case %q", cmd)) {
			bad("%s: cmd/oportuna has no %q subcommand", svcName, cmd)
		}
	}

	// Every variable the app reads is set on api and worker, and nothing else.
	for _, svcName := range []string{"api", "worker"} {
		env := s.c.Services[svcName].Environment
		var missing, unknown []string
		for v := range s.appVars {
			if _, skip := notDeployed[v]; skip {
				continue
			}
			if _, other := codecServerVars[v]; other {
				continue // the codec-server service's (codecProblems)
			}
			if _, ok := env[v]; !ok {
				missing = append(missing, fmt.Sprintf("%s (read in %s)", v, strings.Join(s.appVars[v], ", ")))
			}
		}
		for v := range env {
			if _, other := codecServerVars[v]; other {
				unknown = append(unknown, v+" (the codec server's)")
				continue
			}
			if _, ok := s.appVars[v]; !ok {
				unknown = append(unknown, v)
			}
		}
		sort.Strings(missing)
		sort.Strings(unknown)
		for _, m := range missing {
			bad("%s: the app reads %s but compose does not set it", svcName, m)
		}
		for _, u := range unknown {
			bad("%s: sets %s, which the app never reads (a typo?)", svcName, u)
		}
		for name, raw := range env {
			if _, err := interpolate(raw, s.dotenv); err != nil {
				bad("%s: %s: %v (add it to deploy/env.example)", svcName, name, err)
			}
		}
		if v, ok := env["MAILBOX"]; ok {
			if v, _ := interpolate(v, s.dotenv); v != "off" {
				bad("%s: MAILBOX=%q: the dev mailbox must be off in a deployment", svcName, v)
			}
		}
		// The real CRM: CRM_URL from .env (compose refuses to start without it;
		// empty only for a demo with CRM_SIM=on), the stand-in off by default.
		if raw := env["CRM_URL"]; !strings.Contains(raw, "${CRM_URL?") && !strings.Contains(raw, "${CRM_URL:?") {
			bad("%s: CRM_URL=%q must come from .env with ${CRM_URL?message}: a deployment syncs to the real Salesforce", svcName, raw)
		}
		if v, _ := interpolate(env["CRM_SIM"], s.dotenv); v != "off" {
			bad("%s: CRM_SIM=%q: the Salesforce stand-in must be off unless .env asks for a demo", svcName, v)
		}
	}
	// Secrets have no default: compose refuses to start without them.
	for _, secret := range []struct{ svc, name, ref string }{
		{"api", "JWT_SECRET", "JWT_SECRET"},
		{"api", "DATABASE_URL", "POSTGRES_PASSWORD"},
		{postgresService, "POSTGRES_PASSWORD", "POSTGRES_PASSWORD"},
		{"api", "PAYLOAD_KEYS", "PAYLOAD_KEYS"},
		{"worker", "PAYLOAD_KEYS", "PAYLOAD_KEYS"},
		{codecService, "PAYLOAD_KEYS", "PAYLOAD_KEYS"},
	} {
		raw := s.c.Services[secret.svc].Environment[secret.name]
		if !strings.Contains(raw, "${"+secret.ref+":?") {
			bad("%s: %s must take %s from .env with ${%s:?message}, never a default", secret.svc, secret.name, secret.ref, secret.ref)
		}
	}

	// DATABASE_URL points at the postgres service with its credentials.
	pg := s.c.Services[postgresService]
	pgUser, _ := interpolate(pg.Environment["POSTGRES_USER"], s.dotenv)
	pgPass, _ := interpolate(pg.Environment["POSTGRES_PASSWORD"], s.dotenv)
	pgDB, _ := interpolate(pg.Environment["POSTGRES_DB"], s.dotenv)
	if pgUser == "" {
		pgUser = "postgres"
	}
	if pgDB == "" {
		pgDB = pgUser
	}
	for _, svcName := range []string{"migrate", "api", "worker"} {
		raw, err := s.env(svcName, "DATABASE_URL")
		if err != nil {
			bad("%v", err)
			continue
		}
		u, err := url.Parse(raw)
		if err != nil {
			bad("%s: DATABASE_URL: %v", svcName, err)
			continue
		}
		pass, _ := u.User.Password()
		switch {
		case u.Scheme != "postgres" && u.Scheme != "postgresql":
			bad("%s: DATABASE_URL scheme %q", svcName, u.Scheme)
		case u.Hostname() != postgresService:
			bad("%s: DATABASE_URL host %q is not the %s service", svcName, u.Hostname(), postgresService)
		case u.Port() != "" && u.Port() != "5432":
			bad("%s: DATABASE_URL port %s, PostgreSQL listens on 5432", svcName, u.Port())
		case u.User.Username() != pgUser:
			bad("%s: DATABASE_URL user %q, the postgres service creates %q", svcName, u.User.Username(), pgUser)
		case pass != pgPass:
			bad("%s: DATABASE_URL password is not the postgres service's POSTGRES_PASSWORD", svcName)
		case strings.TrimPrefix(u.Path, "/") != pgDB:
			bad("%s: DATABASE_URL database %q, the postgres service creates %q", svcName, strings.TrimPrefix(u.Path, "/"), pgDB)
		}
	}
	if !hasNamedVolume(s.c, pg, "/var/lib/postgresql/data") {
		bad("%s: /var/lib/postgresql/data must be a named volume declared under volumes:", postgresService)
	}

	// The Temporal server: make cluster's, in the same PostgreSQL (compose_temporal_test.go).
	out = append(out, s.temporalProblems(pgUser, pgPass)...)
	frontend := "7233" // config.yaml's TEMPORAL_FRONTEND_PORT default; temporalProblems checks it is not changed

	// Everyone reaches Temporal at the temporal service's frontend, in one namespace.
	for _, a := range []struct{ svc, name string }{
		{"api", "TEMPORAL_ADDRESS"}, {"worker", "TEMPORAL_ADDRESS"}, {"migrate", "TEMPORAL_ADDRESS"},
		{setupService, "TEMPORAL_ADDRESS"}, {uiService, "TEMPORAL_ADDRESS"},
	} {
		v, err := s.env(a.svc, a.name)
		if err != nil {
			bad("%v", err)
			continue
		}
		host, p, err := net.SplitHostPort(v)
		if err != nil || host != temporalService || p != frontend {
			bad("%s: %s=%q, want %s:%s (the %s service's frontend)", a.svc, a.name, v, temporalService, frontend, temporalService)
		}
	}
	ns := map[string]string{}
	for _, a := range []struct{ svc, name string }{
		{"api", "TEMPORAL_NAMESPACE"}, {"worker", "TEMPORAL_NAMESPACE"},
		{setupService, "TEMPORAL_NAMESPACE"}, {uiService, "TEMPORAL_DEFAULT_NAMESPACE"},
	} {
		v, err := s.env(a.svc, a.name)
		if err != nil {
			bad("%v", err)
		}
		ns[a.svc+" "+a.name] = v
	}
	if distinct(ns) > 1 {
		bad("the Temporal namespace differs: %v", ns)
	}

	// The setup job registers exactly the workflows' search attributes.
	if raw, err := s.env(setupService, "SEARCH_ATTRIBUTES"); err != nil {
		bad("%v", err)
	} else {
		got := map[string]string{}
		for _, pair := range strings.Fields(raw) {
			name, typ, _ := strings.Cut(pair, "=")
			got[name] = typ
		}
		for name, typ := range workflows.SearchAttributes() {
			want := cliType(typ)
			if got[name] != want {
				bad("%s: SEARCH_ATTRIBUTES has %s=%q, workflows.SearchAttributes() says %s", setupService, name, got[name], want)
			}
			delete(got, name)
		}
		for name := range got {
			bad("%s: SEARCH_ATTRIBUTES registers %s, which workflows.SearchAttributes() does not declare", setupService, name)
		}
	}
	setup := s.c.Services[setupService]
	if len(setup.Entrypoint) < 2 || !mounts(setup, setup.Entrypoint[len(setup.Entrypoint)-1]) {
		bad("%s: entrypoint %v does not run a script mounted from the repository", setupService, setup.Entrypoint)
	}

	// Start order.
	validConditions := map[string]bool{"service_started": true, "service_healthy": true, "service_completed_successfully": true}
	for _, n := range names {
		svc := s.c.Services[n]
		for dep, d := range svc.DependsOn {
			target := s.c.Services[dep]
			switch {
			case target == nil:
				bad("%s: depends on %s, which is not a service", n, dep)
				continue
			case !validConditions[d.Condition]:
				bad("%s: depends on %s with condition %q", n, dep, d.Condition)
			case d.Condition == "service_healthy" && (target.Healthcheck == nil || target.Healthcheck.Disable):
				bad("%s: waits for %s to be healthy, but %s has no healthcheck", n, dep, dep)
			case d.Condition == "service_completed_successfully" && target.Restart != "no" && target.Restart != "on-failure":
				bad("%s: waits for %s to complete, but %s restarts (restart: %q); a one-shot job has restart: \"no\"", n, dep, dep, target.Restart)
			}
			if len(svc.Profiles) == 0 && len(target.Profiles) > 0 {
				bad("%s: depends on %s, which only runs with profile %v", n, dep, target.Profiles)
			}
		}
	}
	if cycle := findCycle(s.c); cycle != "" {
		bad("depends_on cycle: %s", cycle)
	}
	wantDeps := map[string]map[string]string{
		"migrate": {postgresService: "service_healthy"},
		"api":     {postgresService: "service_healthy", setupService: "service_completed_successfully", "migrate": "service_completed_successfully"},
		"worker":  {postgresService: "service_healthy", setupService: "service_completed_successfully", "migrate": "service_completed_successfully"},
		// setup.sh waits until the frontend serves.
		setupService:   {temporalService: "service_started"},
		schemaService:  {postgresService: "service_healthy"},
		uiService:      {setupService: "service_completed_successfully"},
		historyService: {schemaService: "service_completed_successfully"},
	}
	for _, svc := range []string{temporalService, matchingService, temporalWorkerService} {
		wantDeps[svc] = map[string]string{schemaService: "service_completed_successfully", historyService: "service_started"}
	}
	for svcName, deps := range wantDeps {
		for dep, cond := range deps {
			if got := s.c.Services[svcName].DependsOn[dep].Condition; got != cond {
				bad("%s: must wait for %s with condition %s (has %q)", svcName, dep, cond, got)
			}
		}
	}

	// Health checks: the binary's probe command on the private METRICS_PORT
	// listener (on the public port, every probe would count in the request
	// metrics and the logs).
	for _, hc := range []struct{ svc, portVar string }{{"api", "METRICS_PORT"}, {"worker", "METRICS_PORT"}} {
		svc := s.c.Services[hc.svc]
		if svc.Healthcheck == nil || svc.Healthcheck.Disable {
			bad("%s: no healthcheck", hc.svc)
			continue
		}
		t := svc.Healthcheck.Test
		if len(t) != 4 || t[0] != "CMD" || t[1] != appImageEntrypoint || t[2] != "healthcheck" {
			bad("%s: healthcheck %v, want [CMD %s healthcheck http://127.0.0.1:<port>%s]", hc.svc, t, appImageEntrypoint, health.ReadyPath)
			continue
		}
		if !strings.Contains(s.mainGo, `case "healthcheck"`) {
			bad("%s: healthcheck runs `oportuna healthcheck`, which cmd/oportuna does not have", hc.svc)
		}
		u, err := url.Parse(t[3])
		want, _ := s.env(hc.svc, hc.portVar)
		switch {
		case want == "":
			bad("%s: %s is not set: no listener serves the health checks privately", hc.svc, hc.portVar)
		case err != nil:
			bad("%s: healthcheck URL %q: %v", hc.svc, t[3], err)
		case u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost":
			bad("%s: healthcheck URL %s must probe the container itself (127.0.0.1)", hc.svc, t[3])
		case u.Port() != want:
			bad("%s: healthcheck probes port %s, but %s=%s", hc.svc, u.Port(), hc.portVar, want)
		case u.Path != health.ReadyPath:
			bad("%s: healthcheck probes %s; the app's readiness is %s (liveness %s)", hc.svc, u.Path, health.ReadyPath, health.LivePath)
		}
	}

	// Ports: unique on the host; the api publishes PORT; workers scale.
	type binding struct{ svc, ip, port string }
	var bound []binding
	published := map[string][]port{}
	for _, n := range names {
		for _, p := range s.c.Services[n].Ports {
			p, err := p.resolve(s.dotenv)
			if err != nil {
				bad("%s: ports: %v", n, err)
				continue
			}
			published[n] = append(published[n], p)
			if p.Published == "" {
				continue
			}
			ip := p.HostIP
			if ip == "0.0.0.0" {
				ip = ""
			}
			for _, b := range bound {
				if b.port == p.Published && b.svc != n && (b.ip == ip || b.ip == "" || ip == "") {
					bad("%s: host port %s is also published by %s", n, p.Published, b.svc)
				}
			}
			bound = append(bound, binding{n, ip, p.Published})
		}
	}
	publishes := func(svc, target string) bool {
		for _, p := range published[svc] {
			if p.Target == target && p.Published != "" {
				return true
			}
		}
		return false
	}
	if apiPort, _ := s.env("api", "PORT"); !publishes("api", apiPort) {
		bad("api: does not publish its PORT %s", apiPort)
	}
	if uiPort, _ := s.env(uiService, "TEMPORAL_UI_PORT"); uiPort != "" && !publishes(uiService, uiPort) {
		bad("%s: does not publish its TEMPORAL_UI_PORT %s", uiService, uiPort)
	}
	w := s.c.Services["worker"]
	if w.ContainerName != "" {
		bad("worker: container_name %q prevents --scale worker=N", w.ContainerName)
	}
	for _, p := range published["worker"] {
		if p.Published != "" {
			bad("worker: publishes host port %s, which prevents --scale worker=N", p.Published)
		}
	}

	// Shutdown: the grace period covers the drain (docs/operations.md): the api's
	// SHUTDOWN_DELAY, the HTTP drain and the grace of cut requests, plus a margin;
	// the worker's running activities (worker stops at once: no delay).
	delay := time.Duration(0)
	if raw, _ := s.env("api", "SHUTDOWN_DELAY"); raw != "" {
		d, err := time.ParseDuration(raw)
		if err != nil {
			bad("api: SHUTDOWN_DELAY=%q: %v", raw, err)
		}
		delay = d
	}
	for _, g := range []struct {
		svc, what string
		min       time.Duration
	}{
		{"api", fmt.Sprintf("SHUTDOWN_DELAY %s + HTTP drain %s + %s for cut requests + 5 s", delay, config.HTTPDrainTimeout, config.HTTPCloseGrace),
			delay + config.HTTPDrainTimeout + config.HTTPCloseGrace + 5*time.Second},
		{"worker", fmt.Sprintf("activities' stop timeout %s + 10 s", worker.StopTimeout), worker.StopTimeout + 10*time.Second},
	} {
		d, err := time.ParseDuration(s.c.Services[g.svc].StopGracePeriod)
		if err != nil || d < g.min {
			bad("%s: stop_grace_period %q, want at least %s (%s); compose's default 10 s kills in-flight work", g.svc, s.c.Services[g.svc].StopGracePeriod, g.min, g.what)
		}
	}

	// Prometheus scrapes every replica of api and worker on their METRICS_PORT.
	if s.prometheus != nil {
		scraped := map[string]bool{}
		for _, sc := range s.prometheus.ScrapeConfigs {
			if sc.MetricsPath != "" && sc.MetricsPath != metrics.Path {
				bad("prometheus.yml: job %s scrapes %s; the app serves %s", sc.JobName, sc.MetricsPath, metrics.Path)
			}
			var targets []string
			for _, d := range sc.DNSSDConfigs {
				for _, n := range d.Names {
					targets = append(targets, net.JoinHostPort(n, strconv.Itoa(d.Port)))
				}
			}
			for _, st := range sc.StaticConfigs {
				targets = append(targets, st.Targets...)
			}
			for _, target := range targets {
				host, port, err := net.SplitHostPort(target)
				if err != nil {
					bad("prometheus.yml: job %s: target %q has no port", sc.JobName, target)
					continue
				}
				svc := s.c.Services[host]
				if svc == nil {
					bad("prometheus.yml: job %s scrapes %s, which is not a compose service", sc.JobName, host)
					continue
				}
				scraped[host] = true
				if want, _ := s.env(host, "METRICS_PORT"); port != want {
					bad("prometheus.yml: job %s scrapes %s:%s, but %s's METRICS_PORT=%s", sc.JobName, host, port, host, want)
				}
			}
		}
		for _, svc := range []string{"api", "worker"} {
			if !scraped[svc] {
				bad("prometheus.yml: no job scrapes the %s service", svc)
			}
		}
		if p := s.c.Services["prometheus"]; p == nil || !mounts(p, "/etc/prometheus/prometheus.yml") {
			bad("prometheus: deploy/prometheus/prometheus.yml is not mounted at /etc/prometheus/prometheus.yml")
		}
	}

	// The image exposes exactly the ports the app's services listen on.
	if s.dockerfile != "" {
		exposed := map[string]bool{}
		for _, l := range joinContinuations(s.dockerfile) {
			if f := strings.Fields(l); len(f) > 1 && strings.EqualFold(f[0], "EXPOSE") {
				for _, p := range f[1:] {
					exposed[strings.TrimSuffix(p, "/tcp")] = true
				}
			}
		}
		listens := map[string]string{}
		for _, v := range []struct{ svc, name string }{{"api", "PORT"}, {"api", "METRICS_PORT"}, {"worker", "METRICS_PORT"}} {
			if p, _ := s.env(v.svc, v.name); p != "" {
				listens[p] = v.svc + " " + v.name
			}
		}
		for p, what := range listens {
			if !exposed[p] {
				bad("Dockerfile: does not EXPOSE %s (%s)", p, what)
			}
		}
		for p := range exposed {
			if _, ok := listens[p]; !ok {
				bad("Dockerfile: EXPOSEs %s, on which no compose service of the image listens", p)
			}
		}
	}
	return append(out, s.codecProblems()...)
}

func cliType(t enums.IndexedValueType) string {
	return map[enums.IndexedValueType]string{
		enums.INDEXED_VALUE_TYPE_KEYWORD:      "Keyword",
		enums.INDEXED_VALUE_TYPE_TEXT:         "Text",
		enums.INDEXED_VALUE_TYPE_INT:          "Int",
		enums.INDEXED_VALUE_TYPE_DOUBLE:       "Double",
		enums.INDEXED_VALUE_TYPE_BOOL:         "Bool",
		enums.INDEXED_VALUE_TYPE_DATETIME:     "Datetime",
		enums.INDEXED_VALUE_TYPE_KEYWORD_LIST: "KeywordList",
	}[t]
}

func distinct(m map[string]string) int {
	set := map[string]bool{}
	for _, v := range m {
		set[v] = true
	}
	return len(set)
}

// mounts reports whether svc bind-mounts an existing repository file at target.
func mounts(svc *service, target string) bool {
	for _, v := range svc.Volumes {
		parts := strings.Split(v, ":")
		if len(parts) < 2 || parts[1] != target || !strings.HasPrefix(parts[0], ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, parts[0])); err == nil {
			return true
		}
	}
	return false
}

func hasNamedVolume(c *composeFile, svc *service, target string) bool {
	for _, v := range svc.Volumes {
		parts := strings.Split(v, ":")
		if len(parts) >= 2 && parts[1] == target {
			_, declared := c.Volumes[parts[0]]
			return declared
		}
	}
	return false
}

func findCycle(c *composeFile) string {
	state := map[string]int{} // 1 visiting, 2 done
	var path []string
	var visit func(n string) string
	visit = func(n string) string {
		switch state[n] {
		case 1:
			return strings.Join(append(path, n), " → ")
		case 2:
			return ""
		}
		state[n] = 1
		path = append(path, n)
		if svc := c.Services[n]; svc != nil {
			deps := make([]string, 0, len(svc.DependsOn))
			for d := range svc.DependsOn {
				deps = append(deps, d)
			}
			sort.Strings(deps)
			for _, d := range deps {
				if cyc := visit(d); cyc != "" {
					return cyc
				}
			}
		}
		path = path[:len(path)-1]
		state[n] = 2
		return ""
	}
	names := make([]string, 0, len(c.Services))
	for n := range c.Services {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if cyc := visit(n); cyc != "" {
			return cyc
		}
	}
	return ""
}

// --- loading --------------------------------------------------------------------

func readFile(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func loadStack(t *testing.T, composeYAML []byte) *stack {
	t.Helper()
	c, err := parseCompose(composeYAML)
	if err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	dotenv, err := readEnvFile(filepath.Join(root, "deploy", "env.example"))
	if err != nil {
		t.Fatal(err)
	}
	vars, err := appVariables(root)
	if err != nil {
		t.Fatal(err)
	}
	var prom prometheusConfig
	if err := yaml.Unmarshal(readFile(t, "deploy/prometheus/prometheus.yml"), &prom); err != nil {
		t.Fatalf("deploy/prometheus/prometheus.yml: %v", err)
	}
	return &stack{c: c, dotenv: dotenv, appVars: vars, mainGo: string(readFile(t, "cmd/oportuna/main.go")),
		dockerfile: string(readFile(t, "Dockerfile")), prometheus: &prom,
		makefile: string(readFile(t, "Makefile")), temporalConfig: readFile(t, "deploy/temporal/config.yaml")}
}

// --- tests ----------------------------------------------------------------------

// TestComposeFileMatchesTheApp is the compose file's consistency test.
func TestComposeFileMatchesTheApp(t *testing.T) {
	s := loadStack(t, readFile(t, "docker-compose.yml"))
	for _, v := range []string{"DATABASE_URL", "TEMPORAL_ADDRESS", "JWT_SECRET", "APPROVAL_SLA"} {
		if _, ok := s.appVars[v]; !ok {
			t.Fatalf("the source scan did not find %s: appVariables is broken", v)
		}
	}
	for _, p := range s.problems() {
		t.Error(p)
	}
}

// TestComposeCheckerCatchesInconsistencies breaks a copy of the compose file in
// each way the checker guards against and expects it to say so.
func TestComposeCheckerCatchesInconsistencies(t *testing.T) {
	original := readFile(t, "docker-compose.yml")
	base := loadStack(t, original)
	var someVar string
	for v := range base.appVars {
		if _, skip := notDeployed[v]; !skip && (someVar == "" || v < someVar) {
			someVar = v
		}
	}
	cases := []breakage{
		{"a variable the app reads is missing on the worker",
			func(s *stack) { delete(s.c.Services["worker"].Environment, someVar) },
			"worker: the app reads " + someVar},
		{"a misspelt variable",
			func(s *stack) { s.c.Services["api"].Environment["SMTP_USER"] = "x" },
			"api: sets SMTP_USER, which the app never reads"},
		{"a secret with a default",
			func(s *stack) { s.c.Services["api"].Environment["JWT_SECRET"] = "${JWT_SECRET:-insecure}" },
			"api: JWT_SECRET must take JWT_SECRET from .env"},
		{"a required variable missing from .env",
			func(s *stack) { delete(s.dotenv, "JWT_SECRET") },
			"required variable JWT_SECRET is missing"},
		{"the dev mailbox on",
			func(s *stack) { s.c.Services["worker"].Environment["MAILBOX"] = "on" },
			"worker: MAILBOX=\"on\""},
		{"DATABASE_URL at another host",
			func(s *stack) {
				s.c.Services["api"].Environment["DATABASE_URL"] = strings.Replace(s.c.Services["api"].Environment["DATABASE_URL"], "@postgres:", "@db:", 1)
			},
			`api: DATABASE_URL host "db"`},
		{"DATABASE_URL on another database",
			func(s *stack) {
				s.c.Services["worker"].Environment["DATABASE_URL"] = strings.Replace(s.c.Services["worker"].Environment["DATABASE_URL"], "/oportuna?", "/portal?", 1)
			},
			`worker: DATABASE_URL database "portal"`},
		{"Temporal on the PostgreSQL of nobody",
			func(s *stack) { s.c.Services[historyService].Environment["TEMPORAL_DB_HOST"] = "pg" },
			"temporal-history: TEMPORAL_DB_HOST=\"pg\""},
		{"TEMPORAL_ADDRESS on the wrong port",
			func(s *stack) { s.c.Services["worker"].Environment["TEMPORAL_ADDRESS"] = "temporal:7234" },
			`worker: TEMPORAL_ADDRESS="temporal:7234"`},
		{"the UI on another namespace",
			func(s *stack) { s.c.Services[uiService].Environment["TEMPORAL_DEFAULT_NAMESPACE"] = "default" },
			"the Temporal namespace differs"},
		{"a search attribute of the wrong type",
			func(s *stack) {
				s.c.Services[setupService].Environment["SEARCH_ATTRIBUTES"] = strings.Replace(s.c.Services[setupService].Environment["SEARCH_ATTRIBUTES"], "ApprovalOverdue=Bool", "ApprovalOverdue=Keyword", 1)
			},
			`SEARCH_ATTRIBUTES has ApprovalOverdue="Keyword"`},
		{"a search attribute the workflows do not declare",
			func(s *stack) { s.c.Services[setupService].Environment["SEARCH_ATTRIBUTES"] += " CustomerName=Text" },
			"registers CustomerName"},
		{"a dependency on nothing",
			func(s *stack) { s.c.Services["api"].DependsOn["redis"] = dependency{Condition: "service_started"} },
			"api: depends on redis, which is not a service"},
		{"waiting for health that is never checked",
			func(s *stack) { s.c.Services["api"].DependsOn[uiService] = dependency{Condition: "service_healthy"} },
			"api: waits for temporal-ui to be healthy, but temporal-ui has no healthcheck"},
		{"waiting for a one-shot job that restarts",
			func(s *stack) { s.c.Services["migrate"].Restart = "always" },
			"waits for migrate to complete, but migrate restarts"},
		{"an invalid condition",
			func(s *stack) { s.c.Services["worker"].DependsOn["migrate"] = dependency{Condition: "service_done"} },
			`worker: depends on migrate with condition "service_done"`},
		{"the api starting before the migrations",
			func(s *stack) { delete(s.c.Services["api"].DependsOn, "migrate") },
			"api: must wait for migrate"},
		{"a cycle",
			func(s *stack) {
				s.c.Services[postgresService].DependsOn = dependsOn{"api": {Condition: "service_started"}}
			},
			"depends_on cycle"},
		{"a fixed worker container name",
			func(s *stack) { s.c.Services["worker"].ContainerName = "oportuna-worker" },
			"worker: container_name"},
		{"a fixed worker host port",
			func(s *stack) { s.c.Services["worker"].Ports = []port{{Raw: "9464:9464"}} },
			"worker: publishes host port 9464"},
		{"two services on one host port",
			func(s *stack) { s.c.Services[uiService].Ports = []port{{Raw: "8080:8080"}} },
			"host port 8080 is also published"},
		{"the api not publishing its port",
			func(s *stack) { s.c.Services["api"].Environment["PORT"] = "9000" },
			"api: does not publish its PORT 9000"},
		{"an unpinned image",
			func(s *stack) { s.c.Services[temporalService].Image = "temporalio/server:latest" },
			"temporal: image temporalio/server:latest is not pinned"},
		{"an image without a tag",
			func(s *stack) { s.c.Services[uiService].Image = "temporalio/ui" },
			"temporal-ui: image temporalio/ui is not pinned"},
		{"a health check on a path the app does not serve",
			func(s *stack) { s.c.Services["api"].Healthcheck.Test[3] = "http://127.0.0.1:9464/ready" },
			"api: healthcheck probes /ready"},
		{"the api probed on its public port",
			func(s *stack) { s.c.Services["api"].Healthcheck.Test[3] = "http://127.0.0.1:8080/readyz" },
			"api: healthcheck probes port 8080, but METRICS_PORT=9464"},
		{"no private listener for the probes",
			func(s *stack) { delete(s.c.Services["api"].Environment, "METRICS_PORT") },
			"api: METRICS_PORT is not set"},
		{"a CRM_URL with a default",
			func(s *stack) { s.c.Services["worker"].Environment["CRM_URL"] = "${CRM_URL:-}" },
			"worker: CRM_URL=\"${CRM_URL:-}\" must come from .env"},
		{"the Salesforce stand-in on by default",
			func(s *stack) { s.c.Services["api"].Environment["CRM_SIM"] = "${CRM_SIM:-on}" },
			"api: CRM_SIM=\"on\""},
		{"CRM_URL missing from .env",
			func(s *stack) { delete(s.dotenv, "CRM_URL") },
			"required variable CRM_URL is missing"},
		{"the api's grace shorter than its drain",
			func(s *stack) { s.c.Services["api"].StopGracePeriod = "40s" },
			"api: stop_grace_period \"40s\", want at least"},
		{"a longer SHUTDOWN_DELAY the grace does not cover",
			func(s *stack) { s.dotenv["SHUTDOWN_DELAY"] = "30s" },
			"api: stop_grace_period"},
		{"Prometheus on the wrong port",
			func(s *stack) { s.prometheus.ScrapeConfigs[1].DNSSDConfigs[0].Port = 9100 },
			"but worker's METRICS_PORT=9464"},
		{"Prometheus scraping a service that does not exist",
			func(s *stack) { s.prometheus.ScrapeConfigs[0].DNSSDConfigs[0].Names = []string{"oportuna-api"} },
			"scrapes oportuna-api, which is not a compose service"},
		{"Prometheus not scraping the workers",
			func(s *stack) { s.prometheus.ScrapeConfigs = s.prometheus.ScrapeConfigs[:1] },
			"no job scrapes the worker service"},
		{"the metrics port not exposed by the image",
			func(s *stack) { s.dockerfile = strings.Replace(s.dockerfile, "EXPOSE 8080 9464", "EXPOSE 8080", 1) },
			"Dockerfile: does not EXPOSE 9464"},
		{"the image exposing a port nothing listens on",
			func(s *stack) {
				s.dockerfile = strings.Replace(s.dockerfile, "EXPOSE 8080 9464", "EXPOSE 8080 9464 9090", 1)
			},
			"Dockerfile: EXPOSEs 9090"},
		{"a health check on the wrong port",
			func(s *stack) { s.c.Services["worker"].Healthcheck.Test[3] = "http://127.0.0.1:8080/readyz" },
			"worker: healthcheck probes port 8080, but METRICS_PORT=9464"},
		{"a health check by curl, absent from the image",
			func(s *stack) {
				s.c.Services["api"].Healthcheck.Test = strList{"CMD-SHELL", "curl -f http://127.0.0.1:8080/readyz"}
			},
			"api: healthcheck [CMD-SHELL"},
		{"an unknown subcommand",
			func(s *stack) { s.mainGo = strings.ReplaceAll(s.mainGo, `case "healthcheck"`, `case "probe"`) },
			"which cmd/oportuna does not have"},
		{"the default grace period",
			func(s *stack) { s.c.Services["worker"].StopGracePeriod = "" },
			"worker: stop_grace_period"},
		{"postgres data in the container",
			func(s *stack) { s.c.Services[postgresService].Volumes = nil },
			"postgres: /var/lib/postgresql/data must be a named volume"},
		{"a missing service",
			func(s *stack) { delete(s.c.Services, setupService) },
			"service temporal-setup is missing"},
	}
	checkBreakages(t, original, cases, func(s *stack) {
		if !strings.Contains(s.mainGo, `case "healthcheck"`) {
			s.mainGo += "\n" + `case "healthcheck"` // the checks below are about compose, not main.go
		}
	})
}

// breakage is one way to break a copy of the stack, and what the checker
// must then say.
type breakage struct {
	name    string
	breakIt func(s *stack)
	want    string
}

// checkBreakages loads a copy of the stack from original for each case,
// prepares it (when prepare is set), breaks it, and expects a problem that
// mentions the case's want.
func checkBreakages(t *testing.T, original []byte, cases []breakage, prepare func(*stack)) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := loadStack(t, original)
			if prepare != nil {
				prepare(s)
			}
			c.breakIt(s)
			problems := s.problems()
			for _, p := range problems {
				if strings.Contains(p, c.want) {
					return
				}
			}
			t.Errorf("no problem mentions %q; got:\n%s", c.want, strings.Join(problems, "\n"))
		})
	}
}

// apiDurationConst finds the duration constant name in package api (non-test
// files) and evaluates it: a literal times time.Second, time.Minute, …, or one
// of the shared constants.
func apiDurationConst(dir, name string, shared map[string]time.Duration) (time.Duration, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, err
	}
	units := map[string]time.Duration{"Millisecond": time.Millisecond, "Second": time.Second, "Minute": time.Minute, "Hour": time.Hour}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			return 0, err
		}
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if id.Name != name || i >= len(vs.Values) {
						continue
					}
					if sel, ok := vs.Values[i].(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok {
							if d, ok := shared[x.Name+"."+sel.Sel.Name]; ok {
								return d, nil
							}
						}
					}
					be, ok := vs.Values[i].(*ast.BinaryExpr)
					if !ok || be.Op != token.MUL {
						return 0, fmt.Errorf("%s: %s is not N * time.Unit", f, name)
					}
					lit, ok1 := be.X.(*ast.BasicLit)
					sel, ok2 := be.Y.(*ast.SelectorExpr)
					if !ok1 || !ok2 || units[sel.Sel.Name] == 0 {
						return 0, fmt.Errorf("%s: %s is not N * time.Unit", f, name)
					}
					n, err := strconv.Atoi(lit.Value)
					if err != nil {
						return 0, fmt.Errorf("%s: %s: %w", f, name, err)
					}
					return time.Duration(n) * units[sel.Sel.Name], nil
				}
			}
		}
	}
	return 0, fmt.Errorf("no constant %s in %s", name, dir)
}

// TestHTTPDrainOutlastsTheLongestRequest: on SIGTERM the API waits for its
// requests in flight config.HTTPDrainTimeout; a decision may wait updateTimeout
// (workflows.DecisionWait) on its workflow update. A drain shorter than that
// cuts decisions in flight.
func TestHTTPDrainOutlastsTheLongestRequest(t *testing.T) {
	update, err := apiDurationConst(filepath.Join(root, "api"), "updateTimeout",
		map[string]time.Duration{"workflows.DecisionWait": workflows.DecisionWait})
	if err != nil {
		t.Fatalf("%v (the API's wait on a workflow update moved: update this test)", err)
	}
	for what, d := range map[string]time.Duration{"api's updateTimeout": update, "workflows.DecisionWait": workflows.DecisionWait} {
		if min := d + 5*time.Second; config.HTTPDrainTimeout < min {
			t.Errorf("config.HTTPDrainTimeout = %s; %s is %s: want at least %s", config.HTTPDrainTimeout, what, d, min)
		}
	}
	t.Logf("updateTimeout %s, HTTP drain %s", update, config.HTTPDrainTimeout)
}
