package deploy_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// dockerfileProblems checks the Dockerfile against the module and the web app:
// pinned base images, a toolchain as recent as go.mod asks, a Node that the web
// app's engines accept, a static binary with the web app embedded, and a
// non-root runtime whose entrypoint is the one compose's health checks call.
func dockerfileProblems(dockerfile, goMod, packageJSON string) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }

	type stage struct {
		image, name string
		lines       []string
	}
	var stages []*stage
	for _, l := range joinContinuations(dockerfile) {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if strings.EqualFold(f[0], "FROM") {
			st := &stage{}
			for i := 1; i < len(f); i++ {
				if strings.HasPrefix(f[i], "--") {
					continue
				}
				if st.image == "" {
					st.image = f[i]
				} else if strings.EqualFold(f[i], "AS") && i+1 < len(f) {
					st.name = f[i+1]
				}
			}
			stages = append(stages, st)
			continue
		}
		if len(stages) > 0 {
			stages[len(stages)-1].lines = append(stages[len(stages)-1].lines, l)
		}
	}
	if len(stages) < 3 {
		bad("Dockerfile: %d stages, want web app, Go build and runtime", len(stages))
		return out
	}
	names := map[string]bool{}
	for _, st := range stages {
		names[st.name] = true
		if names[st.image] { // FROM an earlier stage
			continue
		}
		ref := st.image[strings.LastIndex(st.image, "/")+1:]
		if _, tag, ok := strings.Cut(ref, ":"); (!ok || tag == "" || tag == "latest") && !strings.Contains(st.image, "@sha256:") {
			bad("Dockerfile: base image %s is not pinned to a version", st.image)
		}
	}
	var goStage, nodeStage *stage
	for _, st := range stages {
		switch {
		case strings.HasPrefix(st.image, "golang:"):
			goStage = st
		case strings.HasPrefix(st.image, "node:"):
			nodeStage = st
		}
	}
	runtime := stages[len(stages)-1]

	if nodeStage == nil {
		bad("Dockerfile: no node stage builds the web app")
	} else {
		body := strings.Join(nodeStage.lines, "\n")
		if !strings.Contains(body, "npm ci") || !strings.Contains(body, "npm run build") {
			bad("Dockerfile: the node stage must run npm ci and npm run build")
		}
		var pkg struct {
			Engines struct {
				Node string `json:"node"`
			} `json:"engines"`
		}
		_ = json.Unmarshal([]byte(packageJSON), &pkg)
		tag := strings.SplitN(strings.TrimPrefix(nodeStage.image, "node:"), "-", 2)[0]
		if min := strings.TrimPrefix(pkg.Engines.Node, ">="); min != "" && !versionAtLeast(tag, min) {
			bad("Dockerfile: node %s, but web/package.json engines want node %s", tag, pkg.Engines.Node)
		}
	}
	if goStage == nil {
		bad("Dockerfile: no golang stage builds the binary")
	} else {
		body := strings.Join(goStage.lines, "\n")
		for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "./cmd/oportuna", "web/dist"} {
			if !strings.Contains(body, want) {
				bad("Dockerfile: the Go stage does not use %s (static binary, web app embedded by web/embed.go)", want)
			}
		}
		if nodeStage != nil && !regexp.MustCompile(`COPY --from=`+regexp.QuoteMeta(nodeStage.name)+`\s+\S*dist\s+\S*web/dist`).MatchString(body) {
			bad("Dockerfile: the Go stage does not copy the web build (--from=%s …dist …web/dist)", nodeStage.name)
		}
		if tags := dockerfileBuildTags(goStage.lines); tags["dev"] {
			bad("Dockerfile: the Go stage builds with -tags dev (the stand-ins stay out of production: the default build; tags %v)", tags)
		}
		m := regexp.MustCompile(`(?m)^go (\d+\.\d+(?:\.\d+)?)`).FindStringSubmatch(goMod)
		tag := strings.SplitN(strings.TrimPrefix(goStage.image, "golang:"), "-", 2)[0]
		if m != nil && !versionAtLeast(tag, m[1]) {
			bad("Dockerfile: golang %s is older than go.mod's go %s", tag, m[1])
		}
	}

	body := strings.Join(runtime.lines, "\n")
	user := ""
	for _, l := range runtime.lines {
		if f := strings.Fields(l); len(f) >= 2 && strings.EqualFold(f[0], "USER") {
			user = f[1]
		}
	}
	if u, _, _ := strings.Cut(user, ":"); user == "" || u == "root" || u == "0" {
		if !strings.Contains(runtime.image, ":nonroot") || user != "" {
			bad("Dockerfile: the runtime stage runs as root (USER %q)", user)
		}
	}
	if !strings.Contains(body, `ENTRYPOINT ["`+appImageEntrypoint+`"]`) {
		bad("Dockerfile: the runtime's ENTRYPOINT must be [%q] (compose's health checks call it)", appImageEntrypoint)
	}
	if !strings.Contains(body, "COPY --from="+goStage.name+" ") || strings.Count(body, "COPY ") != 1 {
		bad("Dockerfile: the runtime stage must copy the binary only")
	}
	return out
}

// dockerfileBuildTags are the build tags of the stage's go build, with
// $NAME / ${NAME} read from the stage's ARG defaults.
func dockerfileBuildTags(lines []string) map[string]bool {
	args := map[string]string{}
	tags := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 2 && strings.EqualFold(f[0], "ARG") {
			name, def, _ := strings.Cut(f[1], "=")
			args[name] = strings.Trim(def, `"'`)
			continue
		}
		if !strings.Contains(l, "go build") {
			continue
		}
		m := regexp.MustCompile(`-tags[= ]+("[^"]*"|'[^']*'|\S+)`).FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := os.Expand(strings.Trim(m[1], `"'`), func(n string) string { return args[n] })
		for _, t := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
			tags[t] = true
		}
	}
	return tags
}

func joinContinuations(s string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") && cur == "" {
			continue
		}
		if strings.HasSuffix(t, `\`) {
			cur += strings.TrimSuffix(t, `\`) + " "
			continue
		}
		out = append(out, cur+t)
		cur = ""
	}
	return out
}

// versionAtLeast compares dotted versions; a shorter one ("20.20") stands for
// its latest patch.
func versionAtLeast(have, want string) bool {
	h, w := strings.Split(have, "."), strings.Split(want, ".")
	for i := range w {
		if i >= len(h) {
			return true
		}
		a, err1 := strconv.Atoi(h[i])
		b, err2 := strconv.Atoi(w[i])
		if err1 != nil || err2 != nil {
			return false
		}
		if a != b {
			return a > b
		}
	}
	return true
}

// dockerignoreProblems checks that local builds, dependencies and data stay out
// of the build context and that the sources the build needs stay in.
func dockerignoreProblems(ignore string) []string {
	var out []string
	lines := map[string]bool{}
	for _, l := range strings.Split(ignore, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines[strings.TrimSuffix(strings.TrimPrefix(l, "/"), "/")] = true
		}
	}
	for _, want := range [][]string{{".git"}, {".data"}, {"bin"}, {"web/dist"}, {"**/node_modules", "web/node_modules", "node_modules"}} {
		found := false
		for _, w := range want {
			found = found || lines[w]
		}
		if !found {
			out = append(out, fmt.Sprintf(".dockerignore: does not exclude %s", want[0]))
		}
	}
	for _, need := range []string{"go.mod", "go.sum", "VERSION", "web", "web/package-lock.json", "web/src", "migrations", "brand", "cmd", "*.go", "**/*.go"} {
		if lines[need] || lines["*"] || lines["**"] {
			out = append(out, fmt.Sprintf(".dockerignore: excludes %s, which the build needs", need))
		}
	}
	return out
}

func TestDockerfileBuildsTheAppAsCompose(t *testing.T) {
	for _, p := range dockerfileProblems(string(readFile(t, "Dockerfile")), string(readFile(t, "go.mod")), string(readFile(t, "web/package.json"))) {
		t.Error(p)
	}
	for _, p := range dockerignoreProblems(string(readFile(t, ".dockerignore"))) {
		t.Error(p)
	}
}

func TestDockerfileCheckerCatchesMistakes(t *testing.T) {
	df, goMod, pkg := string(readFile(t, "Dockerfile")), string(readFile(t, "go.mod")), string(readFile(t, "web/package.json"))
	cases := []struct {
		name        string
		df, mod, pk string
		want        string
	}{
		{"runs as root", strings.Replace(df, "USER nonroot:nonroot", "USER root", 1), goMod, pkg, "runs as root"},
		{"old toolchain", regexp.MustCompile(`golang:[0-9.]+`).ReplaceAllString(df, "golang:1.22.5"), goMod, pkg, "older than go.mod"},
		{"node too old for the web app", regexp.MustCompile(`node:[0-9.]+`).ReplaceAllString(df, "node:18.20"), goMod, pkg, "engines want node"},
		{"unpinned base", strings.Replace(df, "gcr.io/distroless/static-debian12:nonroot", "gcr.io/distroless/static-debian12", 1), goMod, pkg, "is not pinned"},
		{"cgo on", strings.Replace(df, "CGO_ENABLED=0", "CGO_ENABLED=1", 1), goMod, pkg, "CGO_ENABLED=0"},
		{"web app not copied", strings.Replace(df, "COPY --from=web /src/web/dist ./web/dist", "", 1), goMod, pkg, "does not copy the web build"},
		{"another entrypoint", strings.Replace(df, `ENTRYPOINT ["/oportuna"]`, `ENTRYPOINT ["/app"]`, 1), goMod, pkg, "ENTRYPOINT"},
		{"stand-in built in", strings.Replace(df, "ARG GO_TAGS=\n", "ARG GO_TAGS=dev\n", 1), goMod, pkg, "-tags dev"},
		{"dev tag in the build", strings.Replace(df, ` -tags "$GO_TAGS"`, ` -tags "netgo,dev"`, 1), goMod, pkg, "-tags dev"},
		{"sources in the runtime", strings.Replace(df, "USER nonroot:nonroot", "COPY . /src\nUSER nonroot:nonroot", 1), goMod, pkg, "copy the binary only"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.df == df {
				t.Fatal("the mutation did not apply: the Dockerfile changed, update the test")
			}
			problems := dockerfileProblems(c.df, c.mod, c.pk)
			if !strings.Contains(strings.Join(problems, "\n"), c.want) {
				t.Errorf("no problem mentions %q; got %v", c.want, problems)
			}
		})
	}
	if p := dockerignoreProblems(".git\nbin\n"); !strings.Contains(strings.Join(p, "\n"), "does not exclude web/dist") {
		t.Errorf(".dockerignore without web/dist: %v", p)
	}
	if p := dockerignoreProblems(".git\n.data\nbin\nweb/dist\n**/node_modules\ngo.sum\n"); !strings.Contains(strings.Join(p, "\n"), "excludes go.sum") {
		t.Errorf(".dockerignore excluding go.sum: %v", p)
	}
}
