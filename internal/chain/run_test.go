package chain

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/ledger"
)

// fakeClaude is a claude for the runner's own tests: it logs its session
// id, budget, fuse cap, place and prompt, writes a transcript where Claude
// Code would with one response that cost $0.04 (80k tokens of cache
// reads at claude-opus-4-6's rates), commits a line of work (every time,
// or only in the first session when FAKE_WORK=first) and a hand-over
// summary, and reports a result that says it cost nothing: the runner
// takes spend from the transcripts.
const fakeClaude = `#!/bin/sh
while [ $# -gt 0 ]; do
	case "$1" in
	--session-id) id=$2; shift ;;
	--max-budget-usd) budget=$2; shift ;;
	--) prompt=$2; shift ;;
	esac
	shift
done
echo "$id|$budget|$MUTHUR_CONTEXT_BUDGET_SPEND|$CONTEXT_BUDGET_CHAIN_PLACE|$prompt" >> "$FAKE_LOG"
n=$(wc -l < "$FAKE_LOG" | tr -d ' ')
mkdir -p "$HOME/.claude/projects/p"
printf '{"type":"assistant","cwd":"%s","message":{"id":"msg_%s","model":"claude-opus-4-6","usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":80000,"output_tokens":0}}}\n' "$PWD" "$id" > "$HOME/.claude/projects/p/$id.jsonl"
if [ "$FAKE_WORK" != first ] || [ "$n" = 1 ]; then
	echo "work $n" >> work.txt && git add work.txt && git commit -qm "work $n"
fi
mkdir -p .claude/context-budget/relay && echo "hand-over $n" > .claude/context-budget/relay/$n.md
git add .claude/context-budget/relay && git commit -qm "hand over $n"
echo '{"type":"system","subtype":"init","slash_commands":["context-budget:relay"]}'
echo '{"type":"assistant","message":{"content":[{"type":"text","text":"Session '$n' handed over."}]},"parent_tool_use_id":null}'
echo '{"type":"result","subtype":"success","session_id":"'$id'","total_cost_usd":0,"terminal_reason":"completed"}'
`

// runFake runs a chain of the fake claude in a new repository and
// returns its summary, what it printed and the fake's log, one line a
// session: id|budget|cap|place|prompt.
func runFake(t *testing.T, cfg Config, work string) (Summary, string, []string) {
	t.Helper()
	return runFakeIn(t, repo(t), cfg, work)
}

// runFakeIn is runFake in the repository dir.
func runFakeIn(t *testing.T, dir string, cfg Config, work string) (Summary, string, []string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake claude is a shell script")
	}
	tmp := t.TempDir()
	claude := filepath.Join(tmp, "claude")
	if err := os.WriteFile(claude, []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(tmp, "log")
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Claude, cfg.Dir, cfg.Prompt, cfg.Price = claude, dir, "Carry out the plan.", fuse.TablePricer(tab)
	cfg.Environ = append(os.Environ(), "HOME="+filepath.Join(tmp, "home"), "FAKE_LOG="+log, "FAKE_WORK="+work,
		"MUTHUR_CONTEXT_BUDGET_SPEND=$99", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
	var out, notes bytes.Buffer
	cfg.Out, cfg.Notes = &out, &notes
	sum := Run(cfg)
	data, _ := os.ReadFile(log)
	t.Logf("out:\n%s\nnotes:\n%s\nlog:\n%s", &out, &notes, data)
	return sum, out.String(), strings.Split(strings.TrimSpace(string(data)), "\n")
}

// TestRunBudgetCarriesOver: each session gets what is left of the
// chain's budget, as claude's --max-budget-usd and as the fuse's cap
// (over the environment's own); no successor starts once it is spent.
// The successors' prompt names the skill as the sessions list it.
func TestRunBudgetCarriesOver(t *testing.T) {
	sum, out, log := runFake(t, Config{MaxRelays: 10, MaxUSD: 0.10}, "")
	if sum.Stopped != MaxUSD || len(sum.Sessions) != 3 {
		t.Fatalf("stopped %q after %d sessions, want max-usd after 3", sum.Stopped, len(sum.Sessions))
	}
	want := []string{"|0.1000|$0.1000|1|Carry out the plan.", "|0.0600|$0.0600|2|/context-budget:relay take main",
		"|0.0200|$0.0200|3|/context-budget:relay take main"}
	for i, s := range sum.Sessions {
		if !strings.HasSuffix(log[i], want[i]) || !strings.HasPrefix(log[i], s.ID+"|") {
			t.Errorf("session %d ran as %q, want %s…%s", i+1, log[i], s.ID, want[i])
		}
		if !s.HandedOver || s.Ended != EndHandedOver || !near(s.CostUSD, 0.04) || s.Place != i+1 {
			t.Errorf("session %d: %+v", i+1, s)
		}
	}
	if !near(sum.CostUSD, 0.12) {
		t.Errorf("the chain cost %v, want 0.12", sum.CostUSD)
	}
	for _, line := range []string{"Session 1 handed over.", "session 2 starts", "session 1 handed over on main (.claude/context-budget/relay/1.md)"} {
		if !strings.Contains(out, line) {
			t.Errorf("printed no %q", line)
		}
	}
}

// TestRunBounds: the number of relays, and no progress outside .claude/
// two sessions in a row, each end a chain of sessions that hand over.
func TestRunBounds(t *testing.T) {
	sum, _, _ := runFake(t, Config{MaxRelays: 1}, "")
	if sum.Stopped != MaxRelays || len(sum.Sessions) != 2 {
		t.Errorf("--max-relays 1: stopped %q after %d sessions, want max-relays after 2", sum.Stopped, len(sum.Sessions))
	}
	sum, _, _ = runFake(t, Config{MaxRelays: 10}, "first")
	if sum.Stopped != NoProgress || len(sum.Sessions) != 3 {
		t.Errorf("no work after the first: stopped %q after %d sessions, want no-progress after 3", sum.Stopped, len(sum.Sessions))
	}
	if got := []string{sum.Sessions[0].Note, sum.Sessions[1].Note}; !slices.Equal(got, []string{"", "it changed nothing outside .claude/"}) {
		t.Errorf("notes %q", got)
	}
}

// record writes a row for a session of the fake, as the Stop hook would:
// the fake's sessions each cost $0.04.
func record(root, _, session, chainID string, place int) error {
	row := ledger.Row{SessionID: session, FirstResponseAt: "2026-12-01T10:00:00Z", Chain: chainID, Place: place}
	row.Total.CostUSD = 0.04
	_, err := ledger.Write(root, &row)
	return err
}

// TestRunNext: each stop but finished says what carries the chain on;
// after a limit, that limit raised.
func TestRunNext(t *testing.T) {
	sum, _, _ := runFake(t, Config{MaxRelays: 1, Record: record}, "")
	n := sum.Next
	if sum.Stopped != MaxRelays || n == nil || n.MaxRelays != 3 || n.Resume != "" || n.Answer || n.Prompt != "/context-budget:relay take main" {
		t.Errorf("after max-relays: %+v", n)
	}
	sum, _, _ = runFake(t, Config{MaxRelays: 10, MaxUSD: 0.10, Record: record}, "")
	if n := sum.Next; sum.Stopped != MaxUSD || n == nil || n.MaxUSD != 0.22 || n.MaxRelays != 10 {
		t.Errorf("after max-usd: %+v", n)
	}
}

// TestRunCarriesChainOn: run --chain ID counts on from the chain's rows:
// its places and what they spent against the whole chain's budget.
func TestRunCarriesChainOn(t *testing.T) {
	dir := repo(t)
	for place := 1; place <= 2; place++ {
		if err := record(dir, "", "earlier"+string(rune('0'+place)), "c1", place); err != nil {
			t.Fatal(err)
		}
	}
	if err := record(dir, "", "other", "c2", 7); err != nil {
		t.Fatal(err)
	}
	gitOut(dir, nil, "add", "-A")
	gitOut(dir, nil, "commit", "-qm", "rows")
	sum, _, log := runFakeIn(t, dir, Config{Chain: "c1", MaxRelays: 10, MaxUSD: 0.16, Record: record}, "")
	if sum.Chain != "c1" || !near(sum.EarlierUSD, 0.08) || len(sum.Sessions) != 2 || sum.Sessions[0].Place != 3 || sum.Stopped != MaxUSD {
		t.Fatalf("carried on: chain %q, earlier %v, stopped %q, sessions %+v", sum.Chain, sum.EarlierUSD, sum.Stopped, sum.Sessions)
	}
	if !strings.HasSuffix(log[0], "|0.0800|$0.0800|3|Carry out the plan.") {
		t.Errorf("the first session of the run ran as %q: the budget less the rows' spend, at place 3", log[0])
	}
}
