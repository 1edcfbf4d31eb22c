package deploy_test

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"oportuna/internal/stack/cluster"
)

// temporalServices are compose's Temporal services and the server's service
// each runs.
var temporalServices = map[string]string{temporalService: "frontend", historyService: "history",
	matchingService: "matching", temporalWorkerService: "worker"}

// The repository's Temporal files, as compose mounts them.
const (
	temporalConfigFile  = "deploy/temporal/config.yaml"
	temporalDynamicFile = "deploy/temporal/dynamicconfig.yaml"
	temporalSchemaFile  = "deploy/temporal/schema.sh"
)

// autoSetupVars are settings of the temporalio/auto-setup image's template,
// which temporal-server never reads: set on a service, they would look like
// they change something (the shard count!) while config.yaml decides.
var autoSetupVars = []string{"NUM_HISTORY_SHARDS", "DB", "DB_PORT", "POSTGRES_SEEDS", "POSTGRES_USER", "POSTGRES_PWD",
	"DYNAMIC_CONFIG_FILE_PATH", "SKIP_SCHEMA_SETUP", "SKIP_DB_CREATE", "BIND_ON_IP", "SERVICES"}

var (
	configEnvRE = regexp.MustCompile(`env "([A-Z0-9_]+)"`)
	shardsRE    = regexp.MustCompile(`(?m)^\s*numHistoryShards:\s*(.*?)\s*$`)
	makeVarRE   = func(name string) *regexp.Regexp { return regexp.MustCompile(`(?m)^` + name + ` := (\S+)\s*$`) }
)

// temporalProblems checks that compose runs the Temporal server make cluster
// runs (internal/stack/cluster): the same server version, the same command
// and config file for each service, the same dynamic config, the same schema
// script, the shard count of config.yaml alone; in the postgres service.
func (s *stack) temporalProblems(pgUser, pgPass string) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	version := cluster.ServerVersion

	// make cluster installs that version.
	if m := makeVarRE("TEMPORAL_SERVER_VERSION").FindStringSubmatch(s.makefile); m == nil || m[1] != "v"+version {
		bad("Makefile: TEMPORAL_SERVER_VERSION is %v, internal/stack/cluster.ServerVersion %s", m, version)
	}
	for _, pkg := range []string{"go.temporal.io/server/cmd/server", "go.temporal.io/server/cmd/tools/sql"} {
		if !strings.Contains(s.makefile, " install "+pkg+"@$(TEMPORAL_SERVER_VERSION)") {
			bad("Makefile: does not install %s@$(TEMPORAL_SERVER_VERSION)", pkg)
		}
	}
	if m := makeVarRE("TEMPORAL_UI_VERSION").FindStringSubmatch(s.makefile); m != nil {
		if ui := s.c.Services[uiService]; ui != nil && ui.Image != "temporalio/ui:"+strings.TrimPrefix(m[1], "v") {
			bad("%s: image %s, make cluster's Temporal UI is %s (TEMPORAL_UI_VERSION)", uiService, ui.Image, m[1])
		}
	}

	// The shard count: config.yaml's, a literal, a power of two of at least
	// 128: fixed when the cluster is created, never changeable afterwards.
	if m := shardsRE.FindSubmatch(s.temporalConfig); m == nil {
		bad("%s: no numHistoryShards", temporalConfigFile)
	} else if n, err := strconv.Atoi(string(m[1])); err != nil || n < 128 || n&(n-1) != 0 {
		bad("%s: numHistoryShards %q, want a power of two of at least 128, written in the file (docs/operations.md \"Sizing\")", temporalConfigFile, m[1])
	}
	configVars := map[string]bool{}
	for _, m := range configEnvRE.FindAllSubmatch(s.temporalConfig, -1) {
		configVars[string(m[1])] = true
	}

	// The four services: make cluster's command, files and settings.
	names := make([]string, 0, len(temporalServices))
	for n := range temporalServices {
		names = append(names, n)
	}
	sort.Strings(names)
	var first map[string]string
	var firstName string
	for _, name := range names {
		svc := s.c.Services[name]
		if svc == nil {
			continue // reported as missing
		}
		if want := "temporalio/server:" + version; svc.Image != want {
			bad("%s: image %s, make cluster runs temporal-server %s: want %s", name, svc.Image, version, want)
		}
		configDir := ""
		if target, ok := mountTarget(svc, temporalConfigFile); ok && path.Base(target) == "config.yaml" {
			configDir = path.Dir(target)
		} else {
			bad("%s: %s is not mounted as <folder>/config.yaml", name, temporalConfigFile)
		}
		argv := append(slices.Clone([]string(svc.Entrypoint)), svc.Command...)
		if want := append([]string{"temporal-server"}, cluster.ServerArgs(configDir, temporalServices[name])...); !slices.Equal(argv, want) {
			bad("%s: runs %v, make cluster runs %v", name, argv, want)
		}
		env := map[string]string{}
		for k, raw := range svc.Environment {
			v, err := interpolate(raw, s.dotenv)
			if err != nil {
				bad("%s: %s: %v", name, k, err)
			}
			env[k] = v
			if slices.Contains(autoSetupVars, k) {
				bad("%s: sets %s, a setting of temporalio/auto-setup that temporal-server never reads (%s decides)", name, k, temporalConfigFile)
			} else if !configVars[k] {
				bad("%s: sets %s, which %s never reads (a typo?)", name, k, temporalConfigFile)
			}
		}
		if dyn := env["TEMPORAL_DYNAMIC_CONFIG"]; dyn == "" || !mountsFrom(svc, dyn, temporalDynamicFile) {
			bad("%s: TEMPORAL_DYNAMIC_CONFIG=%q is not %s mounted from the repository", name, dyn, temporalDynamicFile)
		}
		switch {
		case env["TEMPORAL_DB_HOST"] != postgresService:
			bad("%s: TEMPORAL_DB_HOST=%q is not the %s service", name, env["TEMPORAL_DB_HOST"], postgresService)
		case env["TEMPORAL_DB_PORT"] != "" && env["TEMPORAL_DB_PORT"] != "5432":
			bad("%s: TEMPORAL_DB_PORT=%q, PostgreSQL listens on 5432", name, env["TEMPORAL_DB_PORT"])
		case env["TEMPORAL_DB_USER"] != pgUser || env["TEMPORAL_DB_PASSWORD"] != pgPass:
			bad("%s: TEMPORAL_DB_USER/TEMPORAL_DB_PASSWORD are not the %s service's credentials", name, postgresService)
		}
		if p := env["TEMPORAL_FRONTEND_PORT"]; p != "" && p != "7233" {
			bad("%s: TEMPORAL_FRONTEND_PORT=%s: everyone reaches the frontend on 7233", name, p)
		}
		// One config: every service sees the same settings.
		if first == nil {
			first, firstName = env, name
		} else if !mapsEqual(env, first) {
			bad("%s: its environment differs from %s's: the four services must run one config", name, firstName)
		}
	}

	// The schema job runs make cluster's script with the same tool version,
	// on the databases the services use.
	if job := s.c.Services[schemaService]; job != nil {
		if img := job.Image; !strings.HasPrefix(img, "temporalio/admin-tools:"+version+"-") && img != "temporalio/admin-tools:"+version {
			bad("%s: image %s: temporal-sql-tool and the schema files must be %s's", schemaService, img, version)
		}
		if len(job.Entrypoint) != 2 || job.Entrypoint[0] != "/bin/sh" || !mountsFrom(job, job.Entrypoint[1], temporalSchemaFile) {
			bad("%s: entrypoint %v, want [/bin/sh <%s mounted from the repository>] (the script make cluster runs)", schemaService, job.Entrypoint, temporalSchemaFile)
		}
		for _, k := range []string{"SQL_TOOL", "SCHEMA_DIR"} {
			if _, ok := job.Environment[k]; ok {
				bad("%s: sets %s: the image's tool and schema files are the server's version", schemaService, k)
			}
		}
		for _, k := range []string{"TEMPORAL_DB_HOST", "TEMPORAL_DB_PORT", "TEMPORAL_DB_USER", "TEMPORAL_DB_PASSWORD", "TEMPORAL_DB", "TEMPORAL_VISIBILITY_DB"} {
			if v, _ := interpolate(job.Environment[k], s.dotenv); first != nil && v != first[k] {
				bad("%s: %s=%q, the Temporal services' is %q: the schema would be made elsewhere", schemaService, k, v, first[k])
			}
		}
	}
	if job := s.c.Services[setupService]; job != nil && !strings.HasPrefix(job.Image, "temporalio/admin-tools:"+version) {
		bad("%s: image %s, the server is %s", setupService, job.Image, version)
	}
	return out
}

// mountTarget is where svc mounts the repository file rel (deploy/...).
func mountTarget(svc *service, rel string) (string, bool) {
	for _, v := range svc.Volumes {
		parts := strings.Split(v, ":")
		if len(parts) >= 2 && filepath.Clean(parts[0]) == filepath.Clean(rel) {
			return parts[1], true
		}
	}
	return "", false
}

// mountsFrom reports whether svc mounts the repository file rel at target.
func mountsFrom(svc *service, target, rel string) bool {
	got, ok := mountTarget(svc, rel)
	return ok && got == target && mounts(svc, target)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestComposeTemporalCheckerCatchesDifferencesFromMakeCluster breaks a copy
// of the compose file (and of the Makefile and config.yaml) in each way
// compose could stop running what make cluster runs, and expects the checker
// to say so.
func TestComposeTemporalCheckerCatchesDifferencesFromMakeCluster(t *testing.T) {
	original := readFile(t, "docker-compose.yml")
	cases := []breakage{
		{"another server version in compose",
			func(s *stack) { s.c.Services[historyService].Image = "temporalio/server:1.28.0" },
			"temporal-history: image temporalio/server:1.28.0, make cluster runs temporal-server " + cluster.ServerVersion},
		{"another server version in make cluster",
			func(s *stack) {
				s.makefile = strings.Replace(s.makefile, "TEMPORAL_SERVER_VERSION := v"+cluster.ServerVersion, "TEMPORAL_SERVER_VERSION := v1.30.0", 1)
			},
			"Makefile: TEMPORAL_SERVER_VERSION"},
		{"the schema tool of another version",
			func(s *stack) {
				s.c.Services[schemaService].Image = "temporalio/admin-tools:1.28.0-tctl-1.18.4-cli-1.5.0"
			},
			"temporal-schema: image temporalio/admin-tools:1.28.0"},
		{"schema steps of its own",
			func(s *stack) {
				s.c.Services[schemaService].Entrypoint = strList{"/bin/sh", "-c", "temporal-sql-tool setup-schema -v 0.0"}
			},
			"temporal-schema: entrypoint"},
		{"the schema made in another database",
			func(s *stack) { s.c.Services[schemaService].Environment["TEMPORAL_DB"] = "temporal2" },
			`temporal-schema: TEMPORAL_DB="temporal2"`},
		{"the image's auto-setup",
			func(s *stack) { s.c.Services[temporalService].Image = "temporalio/auto-setup:" + cluster.ServerVersion },
			"temporal: image temporalio/auto-setup"},
		{"a shard count in compose",
			func(s *stack) { s.c.Services[historyService].Environment["NUM_HISTORY_SHARDS"] = "1024" },
			"temporal-history: sets NUM_HISTORY_SHARDS, a setting of temporalio/auto-setup"},
		{"a shard count that is not a power of two",
			func(s *stack) {
				s.temporalConfig = shardsRE.ReplaceAll(s.temporalConfig, []byte("  numHistoryShards: 500"))
			},
			`numHistoryShards "500"`},
		{"a shard count from the environment",
			func(s *stack) {
				s.temporalConfig = shardsRE.ReplaceAll(s.temporalConfig, []byte(`  numHistoryShards: {{ env "SHARDS" }}`))
			},
			`numHistoryShards "{{ env \"SHARDS\" }}"`},
		{"another dynamic config",
			func(s *stack) {
				s.c.Services[matchingService].Environment["TEMPORAL_DYNAMIC_CONFIG"] = "/etc/temporal/config/dynamicconfig/docker.yaml"
			},
			"temporal-matching: TEMPORAL_DYNAMIC_CONFIG=\"/etc/temporal/config/dynamicconfig/docker.yaml\""},
		{"the config not mounted",
			func(s *stack) {
				s.c.Services[temporalWorkerService].Volumes = s.c.Services[temporalWorkerService].Volumes[1:]
			},
			"temporal-worker: deploy/temporal/config.yaml is not mounted"},
		{"a service started otherwise",
			func(s *stack) { s.c.Services[matchingService].Command = strList{"start", "--service", "matching"} },
			"temporal-matching: runs [temporal-server start --service matching], make cluster runs"},
		{"two services on different settings",
			func(s *stack) { s.c.Services[historyService].Environment["TEMPORAL_DB_MAX_CONNS"] = "50" },
			"its environment differs"},
		{"a variable config.yaml does not read",
			func(s *stack) { s.c.Services[temporalService].Environment["TEMPORAL_DB_NAME"] = "temporal" },
			"temporal: sets TEMPORAL_DB_NAME, which deploy/temporal/config.yaml never reads"},
		{"another UI than make cluster's",
			func(s *stack) { s.c.Services[uiService].Image = "temporalio/ui:2.40.0" },
			"temporal-ui: image temporalio/ui:2.40.0, make cluster's Temporal UI"},
	}
	checkBreakages(t, original, cases, nil)
}
