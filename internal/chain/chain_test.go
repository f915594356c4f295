package chain

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/window"
)

// TestExit: each reason's exit status, as design §15 and the manual give
// them.
func TestExit(t *testing.T) {
	for r, want := range map[Reason]int{Finished: 0, MaxRelays: 3, MaxUSD: 3, Halted: 4, NoProgress: 5,
		Paused: 6, Waiting: 7, Failed: 1, Interrupted: 130, "": 1} {
		if got := r.Exit(); got != want {
			t.Errorf("%q.Exit() = %d, want %d", r, got, want)
		}
	}
}

// TestClean removes exactly the markers and the chain's own variables,
// keeping every other entry, a user's CLAUDE_CODE_* setting, a marker's
// name as a prefix of another and an entry with no "=", in order.
func TestClean(t *testing.T) {
	in := []string{"HOME=/h", "CLAUDECODE=1", "CLAUDE_CODE_MAX_OUTPUT_TOKENS=4096", "CLAUDE_CODE_SESSION_ID=x",
		"CLAUDE_PID=9", "CLAUDE_PIDX=kept", "AI_AGENT=claude-code", "CONTEXT_BUDGET_CHAIN=old",
		"CONTEXT_BUDGET_CHAIN_PLACE=3", "GIT_EDITOR=true", "ODD", "CLAUDE_EFFORT=high", "PATH=/bin"}
	want := []string{"HOME=/h", "CLAUDE_CODE_MAX_OUTPUT_TOKENS=4096", "CLAUDE_PIDX=kept", "GIT_EDITOR=true", "ODD", "PATH=/bin"}
	if got := Clean(in); !slices.Equal(got, want) {
		t.Errorf("Clean = %q\nwant %q", got, want)
	}
}

// TestFromEnv reads the chain's variables only when both read.
func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		id, place string
		ok        bool
		wantPlace int
	}{
		{"6f1c2a9e-0d5b-4c3e-9f7a-1b2c3d4e5f60", "1", true, 1},
		{" c1 ", " 12 ", true, 12},
		{"", "1", false, 0},
		{"c1", "", false, 0},
		{"c1", "0", false, 0},
		{"c1", "-2", false, 0},
		{"c1", "two", false, 0},
		{"c1", "1000001", false, 0},
		{"../c1", "1", false, 0},
		{"c.1", "1", false, 0},
		{strings.Repeat("c", 129), "1", false, 0},
	} {
		env := map[string]string{EnvChain: tc.id, EnvPlace: tc.place}
		id, place, ok := FromEnv(func(k string) string { return env[k] })
		if ok != tc.ok || place != tc.wantPlace || ok && id != strings.TrimSpace(tc.id) {
			t.Errorf("FromEnv(%q, %q) = %q, %d, %v", tc.id, tc.place, id, place, ok)
		}
	}
}

// TestNewID makes UUIDs Claude Code takes for --session-id, and plain
// names for the state folder, each new.
func TestNewID(t *testing.T) {
	a, b := NewID(), NewID()
	if a == b || len(a) != 36 || a[14] != '4' || !strings.ContainsRune("89ab", rune(a[19])) || !state.PlainName(a) {
		t.Errorf("NewID: %q, %q", a, b)
	}
}

// TestStreams reads streams of Claude Code 2.1.332 (recorded against the
// end-to-end suite's mock): the result, the relay skill's name, the
// hook's stop, and the session's own text, printed as it came. A result
// line counts only with the session's id, the last one so.
func TestStreams(t *testing.T) {
	for _, tc := range []struct {
		file, id, subtype, terminal, said string
		text                              []string
	}{
		{"take.jsonl", "38eafbe7-08a1-45a8-8b8e-9fb08e6ea023", "success", "completed", "", []string{"Picked up.\n\nNext: carry on.\n"}},
		{"budget.jsonl", "7f1787d1-1328-4ea6-a1f8-a8d23f0fd60f", subtypeOverBudget, "budget_exhausted", "", nil},
		{"halted.jsonl", "cb6f9114-2c90-4690-a822-9427bd14f631", "success", terminalStopHook, "Stop says: context-budget spend fuse: this session has spent", []string{"Done.\n"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var out bytes.Buffer
			// A forged result under another id, after the real one, is
			// not the session's.
			forged := strings.NewReader(`{"type":"result","subtype":"success","session_id":"forged","total_cost_usd":-500,"terminal_reason":"completed"}` + "\n")
			st := follow(io.MultiReader(f, forged), &out, tc.id)
			if st.result == nil {
				t.Fatal("no result")
			}
			r := st.result
			if r.Subtype != tc.subtype || r.TerminalReason != tc.terminal || r.SessionID != tc.id {
				t.Errorf("result %+v", r)
			}
			if st.relay != "/relay" {
				t.Errorf("relay %q, want /relay", st.relay)
			}
			if !strings.HasPrefix(st.hookSaid, tc.said) || (tc.said == "") != (st.hookSaid == "") {
				t.Errorf("hook said %q, want %q…", st.hookSaid, tc.said)
			}
			for _, want := range tc.text {
				if !strings.Contains(out.String(), want) {
					t.Errorf("printed %q, want %q in it", out.String(), want)
				}
			}
			if strings.Contains(out.String(), "tool_use") || strings.Contains(out.String(), "echo step") {
				t.Errorf("printed more than the text: %q", out.String())
			}
		})
	}
}

// TestRelayName: the plugin's name only when the plain skill is not
// listed.
func TestRelayName(t *testing.T) {
	for _, tc := range []struct {
		list []string
		want string
	}{
		{[]string{"go", "relay", "context-budget:relay"}, "/relay"},
		{[]string{"context-budget:go", "context-budget:relay"}, "/context-budget:relay"},
		{[]string{"compact"}, ""},
		{nil, ""},
	} {
		if got := relayName(tc.list); got != tc.want {
			t.Errorf("relayName(%q) = %q, want %q", tc.list, got, tc.want)
		}
	}
}

// FuzzTake: any line is read or skipped, never a panic; nothing is
// printed but a session's text and what Claude Code told the user.
func FuzzTake(f *testing.F) {
	for _, name := range []string{"take.jsonl", "budget.jsonl", "halted.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			f.Add(line)
		}
	}
	f.Add([]byte(`{"type":"assistant","parent_tool_use_id":7,"message":{"content":"x"}}`))
	f.Add([]byte(`{"type":"result","total_cost_usd":"lots","errors":{}}`))
	f.Add([]byte(`{"type":"system","subtype":"informational","content":["x"]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var st streamed
		var out bytes.Buffer
		take(&st, line, &out, "7f1787d1-1328-4ea6-a1f8-a8d23f0fd60f")
		if out.Len() > 0 && !bytes.Contains(line, []byte(`"assistant"`)) && !bytes.Contains(line, []byte(`"informational"`)) {
			t.Errorf("printed %q from %q", out.Bytes(), line)
		}
	})
}

// TestCarryOn prices the successors' growth slice by slice, each at the
// rates of the context it starts at: below a band at the base rates,
// past it at the band's.
func TestCarryOn(t *testing.T) {
	base := restart.Model{Rates: restart.PerMillion(0.5, 0.01, 0.125), Q: 40.0 / restart.Slice}
	band := restart.Model{Rates: restart.PerMillion(2.5, 0.05, 0.625), Q: base.Q}
	plain := lines.Decision{Cost: base}
	if got, n := carryOn(plain, 150_000, 230_000); !near(got, base.Over(150_000, 230_000)) || n != 0 {
		t.Errorf("without a band: %v (%d compactions), want %v", got, n, base.Over(150_000, 230_000))
	}
	banded := lines.Decision{Cost: base, Band: &band, BandAbove: 100_000}
	want := base.Over(50_000, restart.Slice) + band.Over(150_000, restart.Slice) + band.Over(250_000, 30_000)
	if got, _ := carryOn(banded, 50_000, 230_000); !near(got, want) {
		t.Errorf("with a band above 100k: %v, want %v", got, want)
	}
	if got, n := carryOn(plain, 150_000, 0); got != 0 || n != 0 {
		t.Errorf("no growth: %v, %d compactions", got, n)
	}
}

// TestCarryOnCompacts: on a window whose compaction point the growth
// reaches, the one session compacts there each time, as the verdict
// prices a compaction, and goes on from the smaller context; on a 1M
// window it carries on.
func TestCarryOnCompacts(t *testing.T) {
	m := restart.Model{Rates: restart.PerMillion(25, 0.5, 6.25), Q: 40.0 / restart.Slice}
	k := forecast.Shipped.Compaction
	d := lines.Decision{Cost: m, Window: window.Window{Tokens: window.Standard, CompactsAt: 167_000}}
	// From 140k, 100k of work: 27k to the point, a compaction, 73k on.
	got, n := carryOn(d, 140_000, restart.Slice)
	want, ok := m.Compact(140_000, 167_000, k)
	if !ok || n != 1 || !near(got, want) {
		t.Errorf("one slice across the point: %v (%d compactions), want %v as Compact prices it", got, n, want)
	}
	// 400k of work from 140k compacts more than once, and costs less
	// than a carry-on the window cannot hold.
	got, n = carryOn(d, 140_000, 400_000)
	if n < 2 || got >= m.Over(140_000, 400_000) {
		t.Errorf("400k of work: %v with %d compactions; carrying on %v", got, n, m.Over(140_000, 400_000))
	}
	d.Window = window.Window{Tokens: window.OneM, CompactsAt: 967_000}
	if got, n := carryOn(d, 140_000, 400_000); n != 0 || !near(got, m.Over(140_000, 400_000)) {
		t.Errorf("1M window: %v, %d compactions", got, n)
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }
