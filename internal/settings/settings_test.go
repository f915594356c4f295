package settings

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func mustParse(t testing.TB, s string) *Object {
	t.Helper()
	o, err := Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse(%s): %v", s, err)
	}
	return o
}

func TestParseEncodeKeepsOrderAndNumbers(t *testing.T) {
	in := `{"z": 1, "a": {"y": 1.50, "b": [1e3, -0, "x<&>"]}, "m": null, "t": true, "e": {}, "l": []}`
	want := `{
  "z": 1,
  "a": {
    "y": 1.50,
    "b": [
      1e3,
      -0,
      "x<&>"
    ]
  },
  "m": null,
  "t": true,
  "e": {},
  "l": []
}
`
	got := string(Encode(mustParse(t, in)))
	if got != want {
		t.Errorf("Encode =\n%s\nwant\n%s", got, want)
	}
	if again := string(Encode(mustParse(t, got))); again != got {
		t.Errorf("second round trip differs:\n%s", again)
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{`[1]`, `"x"`, `{"a":`, `{"a":1} {"b":2}`, `{"a":1,}`, `nul`} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%s): no error", in)
		}
	}
	if o, err := Parse([]byte(" \n")); err != nil || o.Len() != 0 {
		t.Errorf("blank file: %v, %v; want an empty object", o, err)
	}
}

func TestOurs(t *testing.T) {
	tests := []struct {
		command string
		args    []string
		role    Role
		exe     string
		ok      bool
	}{
		{"/usr/local/bin/context-budget hook", nil, PostToolUse, "/usr/local/bin/context-budget", true},
		{"context-budget hook", nil, PostToolUse, "context-budget", true},
		{"'/opt/my tools/context-budget' hook", nil, PostToolUse, "/opt/my tools/context-budget", true},
		{`"/opt/my tools/context-budget"  ledger   record`, nil, Stop, "/opt/my tools/context-budget", true},
		{`/opt/my\ tools/context-budget statusline`, nil, StatusLine, "/opt/my tools/context-budget", true},
		{`C:\bin\context-budget.exe hook`, nil, PostToolUse, "", false}, // sh reads the backslashes as escapes
		{"/bin/context-budget", []string{"ledger", "record"}, Stop, "/bin/context-budget", true},
		{"/usr/local/bin/context-budget hook", nil, Stop, "", false},
		{"/usr/local/bin/context-budget hook --verbose", nil, PostToolUse, "", false},
		{"/usr/local/bin/not-context-budget hook", nil, PostToolUse, "", false},
		{"echo context-budget hook", nil, PostToolUse, "", false},
		{"", nil, PostToolUse, "", false},
	}
	for _, tt := range tests {
		exe, ok := Ours(tt.command, tt.args, tt.role)
		if ok != tt.ok || (ok && exe != tt.exe) {
			t.Errorf("Ours(%q, %q, %s) = %q, %v; want %q, %v", tt.command, tt.args, tt.role.Args, exe, ok, tt.exe, tt.ok)
		}
	}
}

func TestCommandQuotesAndRoundTrips(t *testing.T) {
	for _, exe := range []string{"/usr/bin/context-budget", "/opt/my tools/context-budget", "/tmp/it's/context-budget", "/a$b/context-budget"} {
		c := Command(exe, Stop)
		got, ok := Ours(c, nil, Stop)
		if !ok || got != exe {
			t.Errorf("Command(%q) = %q, read back as %q, %v", exe, c, got, ok)
		}
	}
	if c := Command("/usr/bin/context-budget", PostToolUse); c != "/usr/bin/context-budget hook" {
		t.Errorf("plain path quoted: %q", c)
	}
}

// TestInstallUninstallRoundTrip: install, then uninstall, gives back the
// original meaning; install twice is byte-identical.
func TestInstallUninstallRoundTrip(t *testing.T) {
	inputs := []string{
		`{}`,
		`{"model":"opus","hooks":{"PostToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"fmt"}]}]}}`,
		// An empty list of an event we do not register stays; one we
		// register (PreToolUse, for the spend fuse) reads the same absent.
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say hi"}]}],"Notification":[]},"env":{"A":"1"}}`,
		`{"hooks":{"PostToolUse":[{"matcher":"*","hooks":[]}]},"statusLine":null}`,
	}
	for _, in := range inputs {
		o := mustParse(t, in)
		if _, err := Install(o, "/x/context-budget", Roles); err != nil {
			if strings.Contains(in, `"statusLine":null`) && err == ErrForeignStatusLine {
				continue
			}
			t.Fatalf("Install(%s): %v", in, err)
		}
		first := Encode(o)
		changes, err := Install(o, "/x/context-budget", Roles)
		if err != nil || len(changes) != 0 || string(Encode(o)) != string(first) {
			t.Errorf("second Install(%s): %q, %v; file changed: %v", in, changes, err, string(Encode(o)) != string(first))
		}
		if _, err := Uninstall(o); err != nil {
			t.Fatal(err)
		}
		if got, want := plain(o), plain(mustParse(t, in)); !reflect.DeepEqual(got, want) {
			t.Errorf("after uninstall %s\nwant %s", Encode(o), in)
		}
	}
}

func TestInstallShapeErrors(t *testing.T) {
	// Shapes Claude Code does not read are refused, not worked around
	// (issue 20, class 11): registering into them would do nothing.
	for _, in := range []string{`{"hooks":[]}`, `{"hooks":{"Stop":{}}}`,
		`{"hooks":{"PostToolUse":["x"]}}`, `{"hooks":{"PostToolUse":["junk",{"matcher":"*"}]}}`,
		`{"hooks":{"Stop":[{"hooks":[{"command":"x"}]}]}}`, `{"hooks":{"Stop":[{"hooks":"x"}]}}`,
		`{"hooks":{"SessionStart":[{"matcher":1,"hooks":[]}]}}`} {
		o := mustParse(t, in)
		before := string(Encode(o))
		if _, err := Install(o, "/x/context-budget", Roles); err == nil {
			t.Errorf("Install(%s): no error", in)
		}
		if string(Encode(o)) != before {
			t.Errorf("Install(%s) changed the object on error", in)
		}
	}
}

func TestDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	b := "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\n"
	want := `--- x
+++ y
@@ -1,6 +1,6 @@
 a
 b
-c
+C
 d
 e
 f
@@ -8,3 +8,4 @@
 h
 i
 j
+k
`
	if got := Diff("x", "y", []byte(a), []byte(b)); got != want {
		t.Errorf("Diff =\n%s\nwant\n%s", got, want)
	}
	if got := Diff("x", "y", []byte(a), []byte(a)); got != "" {
		t.Errorf("Diff of equal texts = %q", got)
	}
	if got := Diff("x", "y", nil, []byte("{}\n")); got != "--- x\n+++ y\n@@ -0,0 +1,1 @@\n+{}\n" {
		t.Errorf("Diff from nothing = %q", got)
	}
}

func TestProjectSlug(t *testing.T) {
	tests := map[string]string{
		"/Users/alice/src/app": "-Users-alice-src-app",
		"/home/u/.claude/x_y":  "-home-u--claude-x-y",
		"/srv/hs+odd@repo v2":  "-srv-hs-odd-repo-v2",
		"/home/ü":              "-home--",
		"/home/\U0001F600":     "-home---",
		`C:\Users\x`:           "C--Users-x",
	}
	for in, want := range tests {
		if got := ProjectSlug(in); got != want {
			t.Errorf("ProjectSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzSettings: whatever parses re-encodes to the same meaning, encodes
// stably, and survives install and uninstall without losing its shape.
func FuzzSettings(f *testing.F) {
	f.Add([]byte(`{"hooks":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"context-budget hook"}]}]}}`))
	f.Add([]byte(`{"a":[1,2,{"b":null}],"statusLine":{"type":"command","command":"/x/context-budget statusline"}}`))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"command":"'/a b/context-budget' ledger record"},{"command":"x"}]}]}}`))
	f.Add([]byte(`{"env":{"\ud800":"\udc00\u00e9\/"},"a":["\u0000","\ud83d",{"\u001b":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Parse(data)
		if err != nil {
			return
		}
		enc := Encode(o)
		o2, err := Parse(enc)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", enc, err)
		}
		if string(Encode(o2)) != string(enc) {
			t.Fatalf("encoding not stable for %q", data)
		}
		if _, err := Install(o2, "/bin/context-budget", Roles); err != nil {
			return
		}
		once := Encode(o2)
		if ch, err := Install(o2, "/bin/context-budget", Roles); err != nil || len(ch) != 0 || string(Encode(o2)) != string(once) {
			t.Fatalf("install not idempotent on %q: %q %v", data, ch, err)
		}
		if _, err := Uninstall(o2); err != nil {
			t.Fatal(err)
		}
		if e, _ := Registered(o2); len(e) != 0 {
			t.Fatalf("uninstall left %+v", e)
		}
	})
}

func TestParseDepthBound(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", maxDepth+5) + strings.Repeat("]", maxDepth+5) + `}`
	if _, err := Parse([]byte(deep)); err != ErrTooDeep {
		t.Errorf("Parse of %d levels: %v, want ErrTooDeep", maxDepth+5, err)
	}
	ok := `{"a":` + strings.Repeat("[", 50) + strings.Repeat("]", 50) + `}`
	if _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("Parse of 50 levels: %v", err)
	}
}

func TestWriteKeepsSymlinkAndMode(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("{}\n"), 0o600)
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := Write(link, []byte("{\"a\": 1}\n"), []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v, %v)", fi.Mode(), err)
	}
	data, _ := os.ReadFile(real)
	fi, _ := os.Stat(real)
	if string(data) != "{\"a\": 1}\n" || fi.Mode().Perm() != 0o600 {
		t.Errorf("target = %q mode %v; want the new content, mode 0600", data, fi.Mode().Perm())
	}
	if bak, _ := os.ReadFile(BackupName(real)); string(bak) != "{}\n" {
		t.Errorf("backup = %q", bak)
	}
}

// plain converts v to the plain values encoding/json produces (maps,
// slices, float64 kept as json.Number), for comparing meaning.
func plain(v any) any {
	switch t := v.(type) {
	case *Object:
		m := make(map[string]any, t.Len())
		for _, k := range t.keys {
			m[k] = plain(t.vals[k])
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = plain(e)
		}
		return a
	}
	return v
}

// TestUnusualEscapesSurvive: a string spelled as Encode would not spell
// it (a lone surrogate, an escaped control character or letter, an
// escaped slash) keeps its spelling through install and uninstall, in a
// key, a value and an array, byte for byte; install used to write
// "\ud800" back as U+FFFD and uninstall could not restore it (issue 31,
// class 6). A value install changes is written anew.
func TestUnusualEscapesSurvive(t *testing.T) {
	spellings := []string{`"\ud800"`, `"\udc00\ud800"`, `"\ud83d"`, `"a\udfffb"`, `"\u0000"`, `"\u001b[2J"`,
		`"\u0009"`, `"\/path\/"`, `"\u00e9t\u00e9"`, `"\u2028"`, `"\uFFFD"`, `"\"\\"`, `"\ud83d\ude00"`}
	for _, sp := range spellings {
		in := "{\n  \"env\": {\n    \"A\": " + sp + ",\n    " + sp + ": \"key\"\n  },\n  \"permissions\": {\n    \"allow\": [\n      " + sp + ",\n      \"plain\"\n    ]\n  }\n}\n"
		o := mustParse(t, in)
		if got := string(Encode(o)); got != in {
			t.Errorf("%s: Encode(Parse) =\n%s\nwant\n%s", sp, got, in)
		}
		if _, err := Install(o, "/x/context-budget", Roles); err != nil {
			t.Fatal(err)
		}
		installed := string(Encode(o))
		if n := strings.Count(installed, sp); n != 3 {
			t.Errorf("%s: %d spellings after install, want 3:\n%s", sp, n, installed)
		}
		if _, err := Uninstall(o); err != nil {
			t.Fatal(err)
		}
		if got := string(Encode(o)); got != in {
			t.Errorf("%s: after install and uninstall\n%s\nwant\n%s", sp, got, in)
		}
	}
	// A value set anew is spelled anew; one set to what it was is not.
	o := mustParse(t, `{"a":"\u0041","b":"\u0042"}`)
	o.Set("a", "A")
	o.Set("b", "C")
	if got, want := string(Encode(o)), "{\n  \"a\": \"\\u0041\",\n  \"b\": \"C\"\n}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzEncodeMeaning: what Encode writes of a parsed file means to
// encoding/json what the file meant, the spellings it keeps included.
func FuzzEncodeMeaning(f *testing.F) {
	f.Add([]byte(`{"env":{"\ud800":"\udc00\u00e9\/"},"a":["\u0000","\ud83d",{"\u001b":"x"}]}`))
	f.Add([]byte(`{"a":1e400,"b":[true,null,"x"],"a":"y"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Parse(data)
		if err != nil {
			return
		}
		decode := func(b []byte) (any, error) {
			d := json.NewDecoder(bytes.NewReader(b))
			d.UseNumber()
			var v any
			err := d.Decode(&v)
			return v, err
		}
		want, err := decode(data)
		if err != nil {
			return
		}
		enc := Encode(o)
		got, err := decode(enc)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("Encode(Parse(%q)) = %q: means %v, want %v (%v)", data, enc, got, want, err)
		}
	})
}
