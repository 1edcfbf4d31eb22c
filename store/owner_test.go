package store_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every statement on the portal's tables is the store's: no other package's
// code holds one. Left out: the tests, and the chaos, load-test and restore-drill harnesses,
// which read and break the database on purpose (docs/architecture.md, "The store").
func TestNoStatementOnThePortalsTablesOutsideTheStore(t *testing.T) {
	tables := portalTables(t)
	statement := regexp.MustCompile(`(?is)^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b`)
	reference := regexp.MustCompile(`(?i)(?:^|[^.\w])(?:FROM|INTO|UPDATE|JOIN)\s+(\w+)`)
	skip := map[string]bool{".git": true, ".data": true, "web": true, "store": true, "testdata": true,
		filepath.Join("cmd", "chaos"): true, filepath.Join("cmd", "loadtest"): true,
		filepath.Join("cmd", "restoredrill"): true}
	found := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		if d.IsDir() {
			if skip[rel] {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			text, err := strconv.Unquote(lit.Value)
			if err != nil || !statement.MatchString(text) {
				return true
			}
			for _, m := range reference.FindAllStringSubmatch(text, -1) {
				if tables[strings.ToLower(m[1])] {
					found++
					t.Errorf("%s: a statement on the portal's table %s outside store/: %.80q", fset.Position(lit.Pos()), m[1], text)
					break
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found > 0 {
		t.Log("write it in its table group's store/*.sql (make sqlc), or store/lists.go when a request chooses its filters")
	}
}

// portalTables are the tables the migrations create.
func portalTables(t *testing.T) map[string]bool {
	files, err := filepath.Glob(filepath.Join("..", "migrations", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	create := regexp.MustCompile(`(?i)CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)`)
	tables := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range create.FindAllStringSubmatch(string(b), -1) {
			tables[strings.ToLower(m[1])] = true
		}
	}
	if !tables["opportunities"] || !tables["users"] {
		t.Fatalf("the migrations' tables: %v", tables)
	}
	return tables
}
