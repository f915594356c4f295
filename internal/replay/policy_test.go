package replay_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/window"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/tuning"

	"github.com/muthur/context-budget/tools/gen"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// TestPolicyModelAgreesWithTheLineCache cuts each transcript after every
// response, as the hook would find it, and asks the real line cache (the
// .line file, recomputed or not as it decides) for the lines; the replay's
// PolicyModel must give the same lines, and the same dollars, after the
// same response.
func TestPolicyModelAgreesWithTheLineCache(t *testing.T) {
	dir := t.TempDir()
	var files []string
	add := func(name string, s gen.Script) {
		files = append(files, write(t, dir, s))
	}
	climb := gen.Climb(30_000, 3_500, 90)
	climb[60].Before = "compact"
	for i := 60; i < 90; i++ {
		climb[i].Reading = 40_000 + int64(i-60)*6_000
	}
	add("opus", gen.Script{ID: "opus", Responses: climb, Seed: 5, Progress: 2})
	haiku := gen.Climb(20_000, 7_000, 60)
	add("haiku", gen.Script{ID: "haiku", Model: "claude-haiku-4-5-20251001", Responses: haiku, Seed: 6})
	big := gen.Climb(150_000, 9_000, 40) // past 200k: a 1M window
	for i := range big {
		big[i].Write1h = i%3 == 0
	}
	add("big", gen.Script{ID: "big", Responses: big, Seed: 7})
	add("unknown", gen.Script{ID: "unknown", Model: "gpt-9", Responses: gen.Climb(100_000, 10_000, 20), Seed: 8})
	if shared := sharedOrEmpty(); shared != "" {
		real, _ := filepath.Glob(filepath.Join(shared, "*-*.jsonl"))
		files = append(files, real...)
	}
	envs := []map[string]string{
		{},
		{tuning.EnvLines: "fixed"},
		{tuning.EnvWarn: "90000"},
		{tuning.EnvPauseSaving: "2.50"},
	}
	for _, p := range files {
		for _, env := range envs {
			t.Run(fmt.Sprintf("%s %v", filepath.Base(p), env), func(t *testing.T) {
				compare(t, p, env)
			})
		}
	}
}

func sharedOrEmpty() string {
	p, _ := sharedtest.Dir()
	return p
}

func compare(t *testing.T, path string, env map[string]string) {
	root := t.TempDir()
	env["XDG_CONFIG_HOME"] = filepath.Join(root, "config") // no price overrides
	getenv := func(k string) string { return env[k] }
	s, err := tuning.FromEnv(getenv)
	if err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(root, "transcript.jsonl")
	opt := replay.Options{Series: true, NewModel: func(string) replay.Model {
		return replay.NewPolicyModel(s, nil, "", live, getenv)
	}}
	got := replay.File(replay.Source{Path: path}, opt)

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cuts := gen.Cuts(data, reading.MaxLine)
	calls := toolCalls(data)
	if len(cuts) != got.Responses {
		t.Fatalf("%d cuts, %d responses", len(cuts), got.Responses)
	}
	done, priced := 0, 0
	money := map[int]*float64{}
	for k, end := range cuts {
		f.Write(data[done:end])
		done = end
		r, _, err := reading.Last(bytes.NewReader(data[:end]), int64(end), "")
		if err != nil {
			t.Fatal(err)
		}
		// The hook runs only after a response that made a tool call.
		if !calls[k] {
			continue
		}
		// A project of its own, as the hook's: its reorientation comes from
		// the session's own orientation once it acts, as replay's does.
		sess := &lines.Call{Dir: state.Dir(root), ID: "s", Root: root, Transcript: live,
			Settings: s, Getenv: getenv, Reading: r.Tokens, RequestedModel: r.RequestedModel, Version: r.Version}
		var d lines.Decision
		if s.Fixed {
			d = lines.Decide(lines.Input{Settings: s, Reading: r.Tokens, RequestedModel: r.RequestedModel, Getenv: getenv, Version: r.Version,
				StatuslineWindow: window.ReadFile(window.FileName(state.Dir(root), "s"))})
		} else if d, _, err = lines.DecideCached(sess); err != nil {
			t.Fatal(err)
		}
		if got.Readings[k] != r.Tokens || got.WarnLines[k] != d.Lines.Warn.Tokens || got.PauseLines[k] != d.Lines.Pause.Tokens {
			t.Fatalf("after response %d: replay %d with lines %d/%d, the hook's line cache %d with %d/%d",
				k, got.Readings[k], got.WarnLines[k], got.PauseLines[k], r.Tokens, d.Lines.Warn.Tokens, d.Lines.Pause.Tokens)
		}
		if d.Priced {
			priced++
		}
		if m := d.Money(r.Tokens); m != nil {
			money[k] = &m.SavingUSD
		}
	}
	// The dollars at each pause are the line cache's too.
	for _, p := range got.Pauses {
		want := money[p.Response]
		if (p.SavingUSD == nil) != (want == nil) || want != nil && *p.SavingUSD != *want {
			t.Errorf("pause at %d: saving %v, the hook's %v", p.Response, p.SavingUSD, want)
		}
	}
	if _, isFixed := env[tuning.EnvLines]; !isFixed && priced == 0 && !bytes.Contains(data, []byte("gpt-9")) {
		t.Error("pricing never ran: the comparison proves little")
	}
}

// toolCalls reports, per response (as gen.Cuts counts them),
// whether it made a tool call.
func toolCalls(data []byte) map[int]bool {
	out := map[int]bool{}
	k, lastID, open := -1, "", false
	for _, line := range bytes.Split(data, []byte("\n")) {
		transcript.Decode(line, func(r *transcript.Record) {
			switch {
			case r.IsBoundary():
				open = false
			case r.IsResponse():
				if !(open && r.Message.ID != "" && r.Message.ID == lastID) {
					k++
				}
				lastID, open = r.Message.ID, true
				out[k] = out[k] || replay.MakesToolCall(r.Message.Content)
			}
		})
	}
	return out
}
