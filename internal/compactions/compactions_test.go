package compactions

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/window"
	"github.com/muthur/context-budget/ledger"
)

func boundary(session, at, version, trigger string, pre int) string {
	return `{"type":"system","subtype":"compact_boundary","sessionId":"` + session + `","timestamp":"` + at + `","version":"` + version +
		`","compactMetadata":{"trigger":"` + trigger + `","preTokens":` + strconv.Itoa(pre) + `}}` + "\n"
}

func appendTo(t *testing.T, name, text string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestUpdate: the index finds automatic compactions, with their version
// and window, reads on from where it stopped, forgets a removed file, and
// survives a save and a load.
func TestUpdate(t *testing.T) {
	dir := t.TempDir()
	projects := filepath.Join(dir, "projects")
	os.MkdirAll(filepath.Join(projects, "p"), 0o755)
	a, b := filepath.Join(projects, "p", "a.jsonl"), filepath.Join(projects, "p", "b.jsonl")
	appendTo(t, a, `{"type":"user","message":{"content":"hi"}}`+"\n"+boundary("a", "2026-03-01T10:00:00Z", "2.1.50", "auto", 167_200))
	appendTo(t, a, boundary("a", "2026-03-01T11:00:00Z", "2.1.50", "manual", 90_000))
	appendTo(t, b, `{"type":"assistant","requestedModel":"claude-opus-4-6[1m]","message":{"id":"m","model":"claude-opus-4-6","usage":{"input_tokens":1}}}`+"\n")
	appendTo(t, b, boundary("b", "2026-03-02T10:00:00Z", "2.1.50", "auto", 160_000))
	ix := &Index{Files: map[string]*File{}}
	if !ix.Update(Transcripts(projects), 0) {
		t.Fatal("nothing changed")
	}
	seen, files := ix.Seen()
	want := map[string]window.Compaction{
		"a": {At: "2026-03-01T10:00:00Z", Version: "2.1.50", Window: window.Standard, PreTokens: 167_200, Session: "a"},
		"b": {At: "2026-03-02T10:00:00Z", Version: "2.1.50", Window: window.OneM, PreTokens: 160_000, Session: "b"},
	}
	if len(seen) != 2 {
		t.Fatalf("seen %+v", seen)
	}
	for _, c := range seen {
		if c != want[c.Session] {
			t.Errorf("got %+v, want %+v", c, want[c.Session])
		}
	}
	if files["a"] != a || files["b"] != b {
		t.Errorf("files %v", files)
	}
	if ix.Update(Transcripts(projects), 0) {
		t.Error("an unchanged folder changed the index")
	}
	appendTo(t, a, boundary("a", "2026-03-03T10:00:00Z", "2.1.50", "auto", 168_000))
	ix.Update(Transcripts(projects), 0)
	if seen, _ := ix.Seen(); len(seen) != 3 {
		t.Errorf("the appended compaction: %+v", seen)
	}
	name := filepath.Join(dir, "state", "compactions.json")
	if err := ix.Save(name); err != nil {
		t.Fatal(err)
	}
	os.Remove(b)
	back := Load(name)
	if !back.Update(Transcripts(projects), 0) {
		t.Error("a removed transcript did not change the index")
	}
	if seen, _ := back.Seen(); len(seen) != 2 || seen[0].Session != "a" {
		t.Errorf("after the removal: %+v", seen)
	}
}

// TestUpdateBudget: a budget reads part of the work, the newest file
// first, and the next update goes on.
func TestUpdateBudget(t *testing.T) {
	dir := t.TempDir()
	old, fresh := filepath.Join(dir, "old.jsonl"), filepath.Join(dir, "new.jsonl")
	appendTo(t, old, boundary("o", "2026-03-01T10:00:00Z", "2.1.50", "auto", 167_000))
	appendTo(t, fresh, boundary("n", "2026-03-05T10:00:00Z", "2.1.50", "auto", 166_000))
	past := mustStat(t, fresh).ModTime().Add(-3600e9)
	os.Chtimes(old, past, past)
	ix := &Index{Files: map[string]*File{}}
	ix.Update([]string{old, fresh}, 10)
	if seen, _ := ix.Seen(); len(seen) != 1 || seen[0].Session != "n" {
		t.Fatalf("a budget of one line read %+v; want the newest file's", seen)
	}
	ix.Update([]string{old, fresh}, 10)
	if seen, _ := ix.Seen(); len(seen) != 2 {
		t.Errorf("the next update did not go on: %+v", seen)
	}
}

func mustStat(t *testing.T, name string) os.FileInfo {
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// TestRows: the ledger's rows give their automatic compactions that
// record a window, of the project.
func TestRows(t *testing.T) {
	root := t.TempDir()
	for _, r := range []ledger.Row{
		{SessionID: "r1", FirstResponseAt: "2026-03-01T09:00:00Z", Compactions: []ledger.Compaction{
			{At: "2026-03-01T10:00:00Z", Trigger: "auto", PreTokens: 166_000, Version: "2.1.50", Window: window.Standard},
			{At: "2026-03-01T11:00:00Z", Trigger: "manual", PreTokens: 90_000, Version: "2.1.50", Window: window.Standard},
			{At: "2026-03-01T12:00:00Z", Trigger: "auto", PreTokens: 166_500}}},
		{SessionID: "me", FirstResponseAt: "2026-03-01T09:00:00Z", Compactions: []ledger.Compaction{
			{At: "2026-03-01T10:00:00Z", Trigger: "auto", PreTokens: 150_000, Version: "2.1.50", Window: window.Standard}}},
	} {
		if _, err := ledger.Write(root, &r); err != nil {
			t.Fatal(err)
		}
	}
	got := Rows(root)
	if len(got) != 2 {
		t.Fatalf("rows %+v", got)
	}
	for _, c := range got {
		if !c.Row || c.Project != root || c.Session == "r1" && c.PreTokens != 166_000 {
			t.Errorf("row %+v", c)
		}
	}
}

// TestSettingsOf: what moves the point in a project is read from its
// settings files and environment once, and tags its compactions; a
// project without is "".
func TestSettingsOf(t *testing.T) {
	config, small, perModel, plain := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	write := func(root, text string) {
		os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
		if err := os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(small, `{"autoCompactWindow": 120000}`)
	write(perModel, `{"modelSettings": {"claude-opus-4-6": {"autoCompactWindow": 150000}, "claude-sonnet-4-5": {"autoCompactWindow": "auto"}}}`)
	env := filepath.Join(t.TempDir(), "envproject")
	write(env, `{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "60"}}`)
	s := NewSettings(config, func(string) string { return "" })
	for root, want := range map[string]string{
		small:    "autoCompactWindow=120000",
		perModel: "claude-opus-4-6.autoCompactWindow=150000",
		env:      "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=60",
		plain:    "",
		"":       "",
	} {
		if got := s.Of(root); got != want {
			t.Errorf("%s: %q, want %q", root, got, want)
		}
	}
	// Read once: a change after the first look is not seen by this
	// replay or recompute.
	write(plain, `{"autoCompactWindow": 100000}`)
	if got := s.Of(plain); got != "" {
		t.Errorf("read again: %q", got)
	}
	h := History([]window.Compaction{
		{At: "2026-03-01T10:00:00Z", Version: "2.1.50", Window: window.Standard, PreTokens: 87_000, Session: "a", Project: small},
		{At: "2026-03-02T10:00:00Z", Version: "2.1.50", Window: window.Standard, PreTokens: 166_000, Session: "b", Project: plain},
	}, s)
	o, ok := window.Learn(h, window.Query{Version: "2.1.50", Window: window.Standard, Project: filepath.Join(t.TempDir(), "new")}, window.Shipped())
	if !ok || o.At != 166_000 || o.Sessions != 1 {
		t.Errorf("the small project's setting taught another project: %+v, %v", o, ok)
	}
	if got := NewSettings("", func(k string) string {
		if k == window.EnvCompactLimit {
			return "150000"
		}
		return ""
	}).Of(plain); got != window.EnvCompactLimit+"=150000" {
		t.Errorf("the environment alone: %q", got)
	}
}

// TestUpdateAll: the parallel read of whole files finds what Update
// finds, with each compaction's project from its record's cwd.
func TestUpdateAll(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 9 {
		name := filepath.Join(dir, "s"+strconv.Itoa(i)+".jsonl")
		line := strings.Replace(boundary("s"+strconv.Itoa(i), "2026-03-0"+strconv.Itoa(i+1)+"T10:00:00Z", "2.1.50", "auto", 160_000+i),
			`"compactMetadata"`, `"cwd":"/p/`+strconv.Itoa(i%3)+`","compactMetadata"`, 1)
		appendTo(t, name, `{"type":"user","message":{"content":"`+strings.Repeat("x", 70<<10)+` compact_boundary"}}`+"\n"+line)
		files = append(files, name)
	}
	serial, parallel := &Index{Files: map[string]*File{}}, &Index{Files: map[string]*File{}}
	serial.Update(files, 0)
	parallel.UpdateAll(files, 3)
	a, _ := serial.Seen()
	b, _ := parallel.Seen()
	if len(a) != 9 || len(b) != 9 {
		t.Fatalf("serial %d, parallel %d compactions; want 9", len(a), len(b))
	}
	for _, c := range b {
		if want := "/p/" + strconv.Itoa(int(c.PreTokens-160_000)%3); c.Project != want {
			t.Errorf("project %+v", c)
		}
	}
}
