package fuse

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/tuning"
)

// record is an assistant record of claude-opus-4-6 at a time, in a
// folder, costing usd in cache reads.
func record(id, at, cwd string, usd float64) string {
	return strings.Replace(strings.Replace(response(id, usd, false), stamp0, at, 1),
		`{"type":"assistant",`, fmt.Sprintf(`{"type":"assistant","cwd":%q,`, cwd), 1)
}

// TestSessionsCounts: the sessions of the work tree written since From
// count, nested and sub-folder ones included, each response once and
// subagents too; sessions elsewhere, files untouched since before From,
// a resumed session's older responses and forged negative usage count
// nothing; a later Update reads on.
func TestSessionsCounts(t *testing.T) {
	config, tree := t.TempDir(), t.TempDir()
	from := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	before, after := "2026-12-01T09:00:00.000Z", "2026-12-01T10:05:00.000Z"
	write := func(project, id string, lines ...string) string {
		name := filepath.Join(config, "projects", project, id+".jsonl")
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		// Written during the chain, whatever this machine's clock says.
		os.Chtimes(name, from.Add(5*time.Minute), from.Add(5*time.Minute))
		return name
	}
	sub := filepath.Join(tree, "pkg")
	os.MkdirAll(sub, 0o755)
	main := write("-tree", "main", `{"type":"queue-operation"}`+"\n", record("a", after, tree, 1), record("a", after, tree, 1), record("b", after, tree, 2))
	os.MkdirAll(filepath.Join(strings.TrimSuffix(main, ".jsonl"), "subagents"), 0o755)
	os.WriteFile(filepath.Join(strings.TrimSuffix(main, ".jsonl"), "subagents", "agent-x.jsonl"), []byte(record("s", after, tree, 0.5)), 0o644)
	write("-tree-pkg", "nested", record("c", after, sub, 4))
	write("-elsewhere", "other", record("d", after, t.TempDir(), 8))
	write("-tree", "resumed", record("e", before, tree, 16), record("f", after, tree, 0.25))
	write("-tree", "forged", record("g", after, tree, 1), strings.Replace(record("h", after, tree, 1), `"cache_read_input_tokens":2000000`, `"cache_read_input_tokens":-900000000`, 1))
	old := write("-tree", "old", record("i", before, tree, 32))
	os.Chtimes(old, from.Add(-time.Hour), from.Add(-time.Hour))

	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s := &Sessions{Projects: filepath.Join(config, "projects"), Root: tree, From: from, Price: TablePricer(tab)}
	s.Update()
	if got := s.Total().USD; !near(got, 1+2+0.5+4+0.25+1) {
		t.Errorf("total $%v, want $8.75", got)
	}
	each := s.Each()
	for id, want := range map[string]float64{"main": 3.5, "nested": 4, "resumed": 0.25, "forged": 1} {
		if !near(each[id].USD, want) {
			t.Errorf("%s: $%v, want $%v", id, each[id].USD, want)
		}
	}
	if _, ok := each["other"]; ok {
		t.Error("a session elsewhere counted")
	}
	if s.Transcript("main") != main || s.Transcript("other") != "" {
		t.Errorf("transcripts: %q, %q", s.Transcript("main"), s.Transcript("other"))
	}
	appendTo(t, main, record("j", after, tree, 8))
	os.Chtimes(main, from.Add(6*time.Minute), from.Add(6*time.Minute))
	s.Update()
	if got := s.Each()["main"].USD; !near(got, 11.5) {
		t.Errorf("after an append main is $%v, want $11.50", got)
	}
}

// TestSessionsKeepTally: a session the fuse tallied counts no less than
// its saved tally once its transcript is emptied (what the tally counted,
// and what was written after), and the tampering shows; a session the
// fuse never tallied counts from its transcript; a resumed session's
// earlier spend is not counted.
func TestSessionsKeepTally(t *testing.T) {
	config, tree := t.TempDir(), t.TempDir()
	from := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	before, after := "2026-12-01T09:00:00.000Z", "2026-12-01T10:05:00.000Z"
	getenv := func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": config}[k] }
	write := func(id string, lines ...string) string {
		name := filepath.Join(config, "projects", "-tree", id+".jsonl")
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(name, from.Add(5*time.Minute), from.Add(5*time.Minute))
		return name
	}
	tally := func(id, name string) {
		tg := Target{Root: tree, ID: id, Transcript: name, Getenv: getenv, Now: from.Add(5 * time.Minute)}
		if err := ArmCap(tg, tuning.Amount{USD: 100}); err != nil {
			t.Fatal(err)
		}
	}
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	forged := write("forged", record("a", after, tree, 2), record("b", after, tree, 1))
	tally("forged", forged)
	write("plain", record("c", after, tree, 4))
	resumed := write("resumed", record("e", before, tree, 16), record("f", after, tree, 0.5))
	tally("resumed", resumed)

	s := &Sessions{Projects: filepath.Join(config, "projects"), Root: tree, From: from, Price: TablePricer(tab), Fuse: Dir(getenv, tree)}
	s.Earlier("resumed", resumed)
	appendTo(t, resumed, record("g", after, tree, 0.25))
	if err := os.Truncate(forged, 0); err != nil {
		t.Fatal(err)
	}
	appendTo(t, forged, record("h", after, tree, 8))
	os.Chtimes(forged, from.Add(6*time.Minute), from.Add(6*time.Minute))
	s.Update()
	each := s.Each()
	for id, want := range map[string]float64{"forged": 2 + 1 + 8, "plain": 4, "resumed": 0.5 + 0.25} {
		if !near(each[id].USD, want) {
			t.Errorf("%s: $%v, want $%v", id, each[id].USD, want)
		}
	}
	if got := s.Total().USD; !near(got, 11+4+0.75) {
		t.Errorf("total $%v, want $15.75", got)
	}
	if len(s.Tampered("forged")) == 0 || len(s.Tampered("plain")) != 0 {
		t.Errorf("tampered: forged %q, plain %q", s.Tampered("forged"), s.Tampered("plain"))
	}
}
