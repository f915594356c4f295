package ledger

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/atomicfile"
)

// rowOf is a complete row of this program's shape.
func rowOf(id, prompt string, ctx int64, usd float64) *Row {
	total := 1.25
	return &Row{
		SessionID: id, Branch: "main", Cwd: "/repo", OpeningPrompt: prompt,
		FirstResponseAt: "2026-03-31T23:59:59Z", LastResponseAt: "2026-04-01T01:00:00Z",
		PricesAsOf: "2026-11-30", ClaudeCodeTotalUSD: &total,
		Total:    Tally{InputTokens: 1, CacheWrite5mTokens: 2, CacheWrite1hTokens: 3, CacheReadTokens: 4, OutputTokens: 5, Responses: 6, CostUSD: 1.5},
		ByRate:   map[string]Tally{"claude-opus-4-6/standard": {Responses: 6, CostUSD: 1.5}},
		Warnings: []string{"w"},
		Orientation: &Phase{EndedBy: "Edit", EndedOn: "a.go", EndedAt: "2026-03-31T23:59:59Z", ContextTokens: ctx,
			Spend: Tally{Responses: 2, CostUSD: usd}},
		Compactions: []Compaction{{At: "2026-04-01T00:30:00Z", Trigger: "auto", PreTokens: 160000,
			Phase: Phase{EndedBy: "end_turn", ContextTokens: 30000, Spend: Tally{Responses: 1, CostUSD: 0.1}}}},
	}
}

func TestRoundTrip(t *testing.T) {
	want := rowOf("s1", "/relay take main", 97000, 0.57)
	data, err := Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Marshal(&got)
	if string(again) != string(data) {
		t.Errorf("round trip changed the row:\n%s\nthen\n%s", data, again)
	}
	if !got.Relayed() || !got.Orientation.Measured() || got.Compactions[0].PreTokens != 160000 || *got.ClaudeCodeTotalUSD != 1.25 {
		t.Errorf("parsed row lost fields: %+v", got)
	}
}

func TestMarshalNulls(t *testing.T) {
	data, _ := Marshal(&Row{SessionID: "s", PricesAsOf: "x", Orientation: &Phase{}})
	for _, want := range []string{`"branch": null`, `"operator": null`, `"claudeCodeTotalUsd": null`,
		`"byRate": {}`, `"warnings": []`, `"compactions": []`, `"endedBy": null`, `"contextTokens": null`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("no %s in\n%s", want, data)
		}
	}
}

// TestParseShapes reads rows as the original shell and Python ledger wrote
// them: older shapes without orientation, nulls, extra keys.
func TestParseShapes(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		ok         bool
		measured   bool
	}{
		{"oldest: no naming, no orientation", `{"sessionId":"a","branch":null,"cwd":null,"firstResponseAt":null,"lastResponseAt":null,"pricesAsOf":"2026-01-01","total":{"inputTokens":1,"cacheWrite5mTokens":0,"cacheWrite1hTokens":0,"cacheReadTokens":0,"outputTokens":0,"thinkingTokens":0,"responses":1,"costUsd":0.1},"ownTurns":{},"subagents":{},"byRate":{},"warnings":[]}`, true, false},
		{"extra keys", `{"sessionId":"a","prs":[1,2],"url":"https://x","telemetry":{"unseen":{}},"name":"n","pricesAsOf":"x","total":{},"ownTurns":{},"subagents":{},"byRate":{},"warnings":[]}`, true, false},
		{"orientation not ended", `{"sessionId":"a","pricesAsOf":"x","orientation":{"endedBy":null,"endedOn":null,"endedAt":null,"contextTokens":null,"spend":{"costUsd":0.9}},"compactions":[]}`, true, false},
		{"orientation ended", `{"sessionId":"a","pricesAsOf":"x","orientation":{"endedBy":"Edit","endedOn":"a.py","endedAt":"2026-01-01T00:00:00Z","contextTokens":90000,"spend":{"costUsd":0.5}},"compactions":[{"endedBy":"Edit","contextTokens":1,"spend":{},"rereads":{"count":2}}]}`, true, true},
		{"corrupt", `{"sessionId":"a","total":`, false, false},
		{"not an object", `[1,2]`, false, false},
		{"no session id", `{"pricesAsOf":"x"}`, false, false},
		{"wrong type", `{"sessionId":"a","total":{"costUsd":"lots"}}`, false, false},
		{"empty", ``, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse([]byte(tc.data))
			if (err == nil) != tc.ok {
				t.Fatalf("err %v, want ok %v", err, tc.ok)
			}
			if r.Orientation.Measured() != tc.measured {
				t.Errorf("measured %v, want %v", r.Orientation.Measured(), tc.measured)
			}
		})
	}
}

func TestReader(t *testing.T) {
	root := t.TempDir()
	dir := Dir(root)
	rd, err := NewReader(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rows, err := rd.ReadAll(); err != nil || len(rows) != 0 || rd.Skipped != 0 {
		t.Fatalf("missing folder: %v %v %d", rows, err, rd.Skipped)
	}
	os.MkdirAll(filepath.Join(dir, "2026-01"), 0o755)
	if rows, _ := mustReader(t, dir).ReadAll(); len(rows) != 0 {
		t.Fatalf("empty folder: %v", rows)
	}
	for _, id := range []string{"b", "a"} {
		if _, err := Write(root, rowOf(id, "x", 1, 0)); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "2026-01", "bad.json"), []byte("{not json"), 0o644)
	os.WriteFile(filepath.Join(dir, "2026-01", "notes.txt"), []byte("hello"), 0o644)
	os.WriteFile(filepath.Join(dir, "2026-01", ".c.json.123.tmp"), []byte("{half"), 0o644)
	rd = mustReader(t, dir)
	var ids []string
	for {
		r, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.SessionID)
	}
	if strings.Join(ids, ",") != "a,b" || rd.Skipped != 1 {
		t.Errorf("rows %v skipped %d, want a,b and 1", ids, rd.Skipped)
	}
	var pe *ParseError
	if len(rd.Errors) != 1 || !errors.As(rd.Errors[0], &pe) || !strings.HasSuffix(pe.Path, "bad.json") {
		t.Errorf("errors %v", rd.Errors)
	}
}

func mustReader(t *testing.T, dir string) *Reader {
	t.Helper()
	rd, err := NewReader(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

func TestPath(t *testing.T) {
	r := rowOf("s1", "", 0, 0)
	got, err := Path("/p", r)
	if err != nil || got != "/p/.claude/costs/sessions/2026-03/s1.json" {
		t.Errorf("Path = %q, %v", got, err)
	}
	for _, bad := range []string{"", "../x", ".hidden", "a/b", "a\x00b"} {
		if _, err := Path("/p", &Row{SessionID: bad}); err != ErrName {
			t.Errorf("Path(%q) err %v, want ErrName", bad, err)
		}
	}
}

// TestCrashBeforeRename stands for a writer that dies between writing its
// temporary file and renaming it: the previous row is intact.
func TestCrashBeforeRename(t *testing.T) {
	root := t.TempDir()
	old := rowOf("s1", "old", 1000, 0.1)
	name, err := Write(root, old)
	if err != nil {
		t.Fatal(err)
	}
	crash := errors.New("crash")
	testOnlyBeforeRename = func(string) error { return crash }
	defer func() { testOnlyBeforeRename = nil }()
	if _, err := Write(root, rowOf("s1", "new", 2000, 0.2)); err != crash {
		t.Fatalf("err %v", err)
	}
	data, _ := os.ReadFile(name)
	if r, err := Parse(data); err != nil || r.OpeningPrompt != "old" {
		t.Errorf("after a crash: %v %q", err, r.OpeningPrompt)
	}
}

// TestWriteFileCrashBeforeRename: the atomic writer with Write's options
// names its temporary file as Write does
// (.<name>.<digits>.tmp beside it), keeps the old file whole when the
// write is abandoned before its rename, and removes the temporary file.
func TestWriteFileCrashBeforeRename(t *testing.T) {
	name := filepath.Join(t.TempDir(), "row.json")
	if err := atomicfile.WriteFile(name, []byte("old\n"), rowWrite()); err != nil {
		t.Fatal(err)
	}
	crash := errors.New("crash")
	var seen string
	testOnlyBeforeRename = func(tmp string) error { seen = tmp; return crash }
	defer func() { testOnlyBeforeRename = nil }()
	if err := atomicfile.WriteFile(name, []byte("new\n"), rowWrite()); err != crash {
		t.Fatalf("err %v", err)
	}
	if data, _ := os.ReadFile(name); string(data) != "old\n" {
		t.Errorf("after a crash: %q", data)
	}
	if dir, base := filepath.Split(seen); dir != filepath.Dir(name)+string(filepath.Separator) ||
		!strings.HasPrefix(base, ".row.json.") || !strings.HasSuffix(base, ".tmp") {
		t.Errorf("temporary file %q, want .row.json.<digits>.tmp beside the row", seen)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(name), ".*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestKilledMidWrite kills -9 a process while it holds a large, fully
// written temporary row it has not renamed yet: the old row stays whole and
// the reader does not count the leftover.
func TestKilledMidWrite(t *testing.T) {
	if os.Getenv("LEDGER_TEST_SLOW_WRITER") != "" {
		testOnlyBeforeRename = func(tmp string) error {
			os.WriteFile(os.Getenv("LEDGER_TEST_SLOW_WRITER")+".ready", []byte(tmp), 0o644)
			time.Sleep(time.Minute)
			return nil
		}
		big := rowOf("s1", "new", 2000, 0.2)
		big.Warnings = []string{strings.Repeat("x", 8<<20)}
		Write(os.Getenv("LEDGER_TEST_SLOW_WRITER"), big)
		os.Exit(0)
	}
	root := t.TempDir()
	name, err := Write(root, rowOf("s1", "old", 1000, 0.1))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledMidWrite$")
	cmd.Env = append(os.Environ(), "LEDGER_TEST_SLOW_WRITER="+root)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(root + ".ready"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the writer never got to its rename")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	data, _ := os.ReadFile(name)
	if r, err := Parse(data); err != nil || r.OpeningPrompt != "old" {
		t.Fatalf("after kill -9: %v %q", err, r.OpeningPrompt)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(name), ".*.tmp"))
	if len(left) != 1 {
		t.Errorf("leftover temporaries %v, want the killed writer's one", left)
	}
	rd := mustReader(t, Dir(root))
	rows, _ := rd.ReadAll()
	if len(rows) != 1 || rd.Skipped != 0 {
		t.Errorf("rows %d skipped %d", len(rows), rd.Skipped)
	}
}

func FuzzParse(f *testing.F) {
	data, _ := Marshal(rowOf("s1", "/relay take x", 97000, 0.5))
	f.Add(data)
	f.Add([]byte(`{"sessionId":"a","orientation":null,"compactions":null}`))
	f.Add([]byte(`{"sessionId":"a","total":{"costUsd":1e400}}`))
	f.Add([]byte(`{"sessionId":"a","total":{"costUsd":1e308},"orientation":{"endedBy":"Edit","contextTokens":4611686018427387904}}`))
	f.Add([]byte(`{"sessionId":"a","byRate":{"m":{"costUsd":-1}},"compactions":[{"preTokens":-5}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		if r.SessionID == "" {
			t.Fatal("parsed a row without a session id")
		}
		// A row that parses is in range (Check): it always writes, and
		// there is nothing to sanitize.
		if r.Sanitize() {
			t.Fatalf("a parsed row needed sanitizing: %s", data)
		}
		out, err := Marshal(&r)
		if err != nil {
			t.Fatalf("a parsed row does not write: %v", err)
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("a written row does not read back: %v\n%s", err, out)
		}
	})
}

// TestChainFields: a session of a relay chain carries the chain's id and
// its place; a row without them is written and read as before, with no
// such keys; a place or an id out of range is refused on reading and
// dropped on writing.
func TestChainFields(t *testing.T) {
	r := rowOf("s1", "/relay take main", 97000, 0.57)
	plain, _ := Marshal(r)
	if strings.Contains(string(plain), `"chain"`) || strings.Contains(string(plain), `"place"`) {
		t.Errorf("a row outside any chain names one:\n%s", plain)
	}
	r.Chain, r.Place = "6f1c2a9e-0d5b-4c3e-9f7a-1b2c3d4e5f60", 2
	data, _ := Marshal(r)
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Chain != r.Chain || got.Place != 2 {
		t.Errorf("read chain %q place %d, want %q 2", got.Chain, got.Place, r.Chain)
	}
	for _, bad := range []string{
		`{"sessionId":"a","place":-1}`,
		`{"sessionId":"a","place":1000001}`,
		`{"sessionId":"a","chain":"` + strings.Repeat("x", MaxChain+1) + `"}`,
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrRange) {
			t.Errorf("Parse(%.60s…) = %v, want ErrRange", bad, err)
		}
	}
	r.Place = -3
	if !r.Sanitize() || r.Chain != "" || r.Place != 0 {
		t.Errorf("Sanitize kept chain %q place %d", r.Chain, r.Place)
	}
	for _, w := range r.Warnings {
		if strings.Contains(w, "price table") {
			t.Errorf("a dropped chain reads as a price table's fault: %q", w)
		}
	}
}
