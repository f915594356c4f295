package reading

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shipped are the folders the four programs are built from; tools/ holds
// development tools run by hand on this repository's own files (the
// corpus, /proc), which are not shipped.
var shipped = []string{"cmd", "internal", "ledger", "skills"}

// bareAllowed lists the bare reads that are not of a file the program
// does not own, with the reason; a key is the file (from the module
// root) and the call as bareReads names it.
var bareAllowed = map[string]string{
	// The one reader itself: Open is built on it.
	"internal/reading/open_other.go: os.Open": "the one reader's open where no non-blocking open exists",
	"internal/fuse/loop.go: reading.ReadFile": "the loop step's one-line file, bounded by its key's length",
	"internal/transcript/record.go: os.Open":  "a folder's names, read at most a bound of them, not a file's content",
}

// TestNoBareReads walks the shipped packages' non-test files and fails on
// a read of a file by any way but the one reader (Open, ReadFile and its
// bounds table): os.ReadFile, os.Open, ioutil's readers, io.ReadAll of
// anything but an io.LimitReader, and a reading.ReadFile whose bound is
// not one of bounds.go's. A transcript, a ledger row, a state or
// settings file can come from a project or a payload, and a read of one
// unbounded or of a FIFO or device stalls or swamps a hook call (issue
// 31, class 5: the .cold and .resume files were read whole).
func TestNoBareReads(t *testing.T) {
	root := moduleRoot(t)
	files := 0
	for _, top := range shipped {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			for _, call := range bareReads(t, rel, src) {
				if _, ok := bareAllowed[rel+": "+call.name]; !ok {
					t.Errorf("%s:%d: %s reads a file bare: use reading.Open or reading.ReadFile with a bound of bounds.go", rel, call.line, call.name)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 {
		t.Fatalf("walked %d files: the module's layout changed", files)
	}
}

type bareCall struct {
	name string
	line int
}

// bareReads returns the calls in src that read a file bare.
func bareReads(t *testing.T, name string, src []byte) []bareCall {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	// The local names of the packages that read files.
	pkgs := map[string]string{}
	for _, imp := range f.Imports {
		p := strings.Trim(imp.Path.Value, `"`)
		local := p[strings.LastIndexByte(p, '/')+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		pkgs[local] = p
	}
	consts := constants(f)
	var out []bareCall
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		full := pkgs[id.Name] + "." + sel.Sel.Name
		bare := slices.Contains([]string{"os.ReadFile", "os.Open", "io/ioutil.ReadFile", "io/ioutil.ReadAll"}, full)
		if full == "io.ReadAll" && !limited(call, pkgs) {
			bare = true
		}
		// ReadFile's bound is one of the table's (bounds.go), named.
		if full == modulePath+"/internal/reading.ReadFile" && (len(call.Args) != 2 || !tableBound(call.Args[1], pkgs, consts)) {
			bare = true
		}
		if bare {
			out = append(out, bareCall{id.Name + "." + sel.Sel.Name, fset.Position(call.Pos()).Line})
		}
		return true
	})
	return out
}

// modulePath is the module's import path.
const modulePath = "github.com/muthur/context-budget"

// tableBound reports whether e names a bound of bounds.go: reading.MaxX,
// or a constant of the file defined as one (override.MaxSize).
func tableBound(e ast.Expr, pkgs map[string]string, consts map[string]ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		id, ok := e.X.(*ast.Ident)
		return ok && pkgs[id.Name] == modulePath+"/internal/reading" && strings.HasPrefix(e.Sel.Name, "Max")
	case *ast.Ident:
		v, ok := consts[e.Name]
		return ok && tableBound(v, pkgs, nil)
	}
	return false
}

// constants maps the file's top-level constants to their values.
func constants(f *ast.File) map[string]ast.Expr {
	m := map[string]ast.Expr{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					m[n.Name] = vs.Values[i]
				}
			}
		}
	}
	return m
}

// limited reports whether an io.ReadAll's argument is an io.LimitReader.
func limited(call *ast.CallExpr, pkgs map[string]string) bool {
	if len(call.Args) != 1 {
		return false
	}
	inner, ok := call.Args[0].(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := inner.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && pkgs[id.Name] == "io" && sel.Sel.Name == "LimitReader"
}

// TestBareReadsFinds: the walker's detector finds each bare read and
// passes the bounded ones (a check that cannot fail is no check).
func TestBareReadsFinds(t *testing.T) {
	src := `package x

import (
	"io"
	stdos "os"
	"io/ioutil"

	"github.com/muthur/context-budget/internal/reading"
)

func f(name string, r io.Reader) {
	stdos.ReadFile(name)
	stdos.Open(name)
	ioutil.ReadFile(name)
	io.ReadAll(r)
	io.ReadAll(io.LimitReader(r, 10))
	stdos.OpenFile(name, stdos.O_WRONLY, 0)
	reading.ReadFile(name, 1<<20)
	reading.ReadFile(name, reading.MaxSideFile)
	reading.ReadFile(name, mine)
	reading.ReadFile(name, theirs)
}

const mine = reading.MaxChoice
const theirs = 64
`
	var got []string
	for _, c := range bareReads(t, "x.go", []byte(src)) {
		got = append(got, c.name)
	}
	want := []string{"stdos.ReadFile", "stdos.Open", "ioutil.ReadFile", "io.ReadAll", "reading.ReadFile", "reading.ReadFile"}
	if !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

// moduleRoot is the folder holding go.mod, above the test's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
