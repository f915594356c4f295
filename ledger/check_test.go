package ledger

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Rows are committed and shared: figures no session can have are refused
// at the border, and the Reader skips and counts them (issue 20, class 2).
func TestParseRefusesOutOfRange(t *testing.T) {
	for _, bad := range []string{
		`{"sessionId":"a","orientation":{"endedBy":"Edit","contextTokens":4611686018427387904}}`,
		`{"sessionId":"a","orientation":{"endedBy":"Edit","contextTokens":-5}}`,
		`{"sessionId":"a","orientation":{"endedBy":"Edit","contextTokens":10000001}}`,
		`{"sessionId":"a","orientation":{"endedBy":"Edit","contextTokens":5000,"spend":{"costUsd":1e308}}}`,
		`{"sessionId":"a","orientation":{"endedBy":"Edit","contextTokens":5000,"spend":{"costUsd":-0.5}}}`,
		`{"sessionId":"a","total":{"costUsd":-1}}`,
		`{"sessionId":"a","total":{"inputTokens":-1}}`,
		`{"sessionId":"a","total":{"cacheReadTokens":9223372036854775807}}`,
		`{"sessionId":"a","subagents":{"responses":-3}}`,
		`{"sessionId":"a","byRate":{"m/standard":{"costUsd":1e300}}}`,
		`{"sessionId":"a","claudeCodeTotalUsd":-2}`,
		`{"sessionId":"a","compactions":[{"preTokens":-1}]}`,
		`{"sessionId":"a","compactions":[{"preTokens":100,"contextTokens":4611686018427387904}]}`,
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrRange) {
			t.Errorf("Parse(%s) = %v, want ErrRange", bad, err)
		}
	}
	good := `{"sessionId":"a","total":{"costUsd":12.5,"cacheReadTokens":900000000},"orientation":{"endedBy":"Edit","contextTokens":1000000,"spend":{"costUsd":0.4}}}`
	if _, err := Parse([]byte(good)); err != nil {
		t.Errorf("a row in range: %v", err)
	}

	root := t.TempDir()
	dir := filepath.Join(Dir(root), "2026-10")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "a.json"), []byte(good), 0o644)
	os.WriteFile(filepath.Join(dir, "b.json"), []byte(`{"sessionId":"b","total":{"costUsd":1e308}}`), 0o644)
	rd := mustReader(t, Dir(root))
	rows, _ := rd.ReadAll()
	if len(rows) != 1 || rd.Skipped != 1 {
		t.Errorf("rows %d, skipped %d; want 1 and 1", len(rows), rd.Skipped)
	}
}

// A row priced by a table gone wrong (NaN, an infinity) is still written,
// and reads back: json refuses NaN, and the Stop hook used to write no row
// at all (issue 20, class 3).
func TestWriteNaN(t *testing.T) {
	root := t.TempDir()
	nan, inf := math.NaN(), math.Inf(1)
	r := &Row{SessionID: "s1", PricesAsOf: "x", FirstResponseAt: "2026-09-01T00:00:00Z", ClaudeCodeTotalUSD: &inf,
		Total: Tally{CostUSD: nan, Responses: 2}, OwnTurns: Tally{CostUSD: inf}, Subagents: Tally{CostUSD: -1},
		ByRate:      map[string]Tally{"m/standard": {CostUSD: nan}},
		Orientation: &Phase{EndedBy: "Edit", ContextTokens: 5000, Spend: Tally{CostUSD: math.Inf(-1)}}}
	name, err := Write(root, r)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	data, _ := os.ReadFile(name)
	got, err := Parse(data)
	if err != nil {
		t.Fatalf("the row does not read back: %v\n%s", err, data)
	}
	if got.Total.CostUSD != 0 || got.Total.Responses != 2 || got.ClaudeCodeTotalUSD != nil || len(got.Warnings) != 1 {
		t.Errorf("read back %+v, warnings %q", got.Total, got.Warnings)
	}
}

// A temporary row left by a writer killed during its fsync (git shows it
// forever) is cleaned by the next write in its month once a minute old,
// and only then (issue 20, class 10).
func TestWriteCleansStaleTemporaries(t *testing.T) {
	root := t.TempDir()
	r := &Row{SessionID: "s1", PricesAsOf: "x", FirstResponseAt: "2026-09-01T00:00:00Z"}
	name, err := Write(root, r)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(name)
	stale := filepath.Join(dir, ".s2.json.123456.tmp")
	fresh := filepath.Join(dir, ".s3.json.654321.tmp")
	os.WriteFile(stale, []byte("{half"), 0o644)
	os.WriteFile(fresh, []byte("{half"), 0o644)
	old := time.Now().Add(-2 * time.Minute)
	os.Chtimes(stale, old, old)
	if _, err := Write(root, r); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh temporary (a live writer's) was removed: %v", err)
	}
}

// A ledger folder that links out of the project gets no row (issue 20,
// class 7).
func TestWriteRefusesLinkOut(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, ".claude")); err != nil {
		t.Skip(err)
	}
	if _, err := Write(root, &Row{SessionID: "s1", PricesAsOf: "x"}); err == nil {
		t.Error("wrote a row through a link out of the project")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the outside folder got %d entries", len(entries))
	}
}

// Sums of hostile counts saturate, so the row is clamped, not wrapped
// into a plausible figure (issue 20, class 2).
func TestAddSaturates(t *testing.T) {
	big := Tally{CacheReadTokens: math.MaxInt64 - 10, Responses: 1}
	sum := big.Add(big).Add(big)
	if sum.CacheReadTokens != math.MaxInt64 || sum.Responses != 3 {
		t.Errorf("sum %+v", sum)
	}
	neg := Tally{InputTokens: math.MinInt64 + 1}
	if s := neg.Add(neg); s.InputTokens != math.MinInt64 {
		t.Errorf("negative sum %d", s.InputTokens)
	}
	r := &Row{SessionID: "s", Total: sum}
	r.Sanitize()
	if r.Total.CacheReadTokens != MaxTallyTokens || r.Check() != nil {
		t.Errorf("sanitized %+v: %v", r.Total, r.Check())
	}
}
