package fuse

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/ledger"
)

var now = time.Date(2026, 12, 1, 10, 0, 30, 0, time.UTC)

const stamp0 = "2026-12-01T10:00:00.000Z"

// response writes an assistant record of claude-opus-4-6 costing usd in
// cache reads ($0.50 per million).
func response(id string, usd float64, side bool) string {
	read := int64(usd / 0.5 * 1e6)
	return fmt.Sprintf(`{"type":"assistant","isSidechain":%v,"timestamp":%q,"message":{"id":%q,"model":"claude-opus-4-6","usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":0,"output_tokens":0}}}`+"\n",
		side, stamp0, id, read)
}

type env map[string]string

// home is the HOME every test's env gives when it sets none: the fuse's
// state goes under it, in .claude/context-budget.
var home string

func (e env) get(k string) string {
	if v, ok := e[k]; ok || k != "HOME" {
		return v
	}
	return home
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fuse-home")
	if err != nil {
		panic(err)
	}
	home = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// tempFolder is a fuse's folder of its own, opened.
func tempFolder(t *testing.T) *folder {
	fo, err := openFolder(filepath.Join(t.TempDir(), "context-budget", "fuse", "k"), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fo.close)
	return fo
}

// fdir is the fuse's folder for a root, under the tests' HOME.
func fdir(root string) string { return Dir(env{}.get, root) }

// project makes a root and a session transcript spending usd.
func project(t *testing.T, usd ...float64) (root, transcript string) {
	root = t.TempDir()
	transcript = filepath.Join(root, "sess.jsonl")
	var b strings.Builder
	for i, u := range usd {
		b.WriteString(response(fmt.Sprintf("m%d", i), u, false))
	}
	os.WriteFile(transcript, []byte(b.String()), 0o644)
	return root, transcript
}

func appendTo(t *testing.T, name, data string) {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(data)
	f.Close()
}

func call(root, transcript, event string, e env, tool, input string) Call {
	return Call{Event: event, Root: root, Cwd: root, Session: "sess", Transcript: transcript, ToolName: tool,
		ToolInput: json.RawMessage(input), Now: now, Getenv: e.get}
}

func decide(t *testing.T, c Call) Answer {
	t.Helper()
	a, err := Decide(c)
	if err != nil {
		t.Fatalf("Decide: %v", err)
	}
	return a
}

const bashLs = `{"command":"ls"}`

func TestUnarmedTouchesNothing(t *testing.T) {
	root, tr := project(t, 100)
	for _, ev := range []string{PreToolUse, Stop, SubagentStop} {
		if a := decide(t, call(root, tr, ev, env{}, "Bash", bashLs)); a != (Answer{}) {
			t.Errorf("%s unarmed: %+v", ev, a)
		}
	}
	if _, err := os.Stat(state.Dir(root)); !os.IsNotExist(err) {
		t.Errorf("an unarmed call made the state folder: %v", err)
	}
	if _, err := os.Stat(fdir(root)); !os.IsNotExist(err) {
		t.Errorf("an unarmed call made the fuse's folder: %v", err)
	}
}

// TestArmedCalledOnlyWhenArmed: the hook starts its deadline's timers in
// Call.Armed; the unarmed check never calls it, an armed one once.
func TestArmedCalledOnlyWhenArmed(t *testing.T) {
	root, tr := project(t, 1)
	for _, c := range []struct {
		e    env
		want int
	}{{env{}, 0}, {env{tuning.EnvSpend: "$5"}, 1}} {
		n := 0
		cl := call(root, tr, PreToolUse, c.e, "Bash", bashLs)
		cl.Armed = func(func() Answer) { n++ }
		decide(t, cl)
		if n != c.want {
			t.Errorf("env %v: Armed called %d times, want %d", c.e, n, c.want)
		}
	}
}

func TestCapHoldsDeniesAndStops(t *testing.T) {
	root, tr := project(t, 3, 2.5)
	e := env{tuning.EnvSpend: "$5"}
	a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs))
	if a.Deny == "" || !strings.Contains(a.Deny, "$5.50 of its $5.00 cap") || !strings.Contains(a.Deny, tuning.EnvSpend) {
		t.Fatalf("at the cap: %+v", a)
	}
	if !strings.Contains(a.Stop, "$5.50 of its $5.00 cap") {
		t.Fatalf("at the cap, the deny does not end the turn: %+v", a)
	}
	if hs := Halts(fdir(root), "sess"); len(hs) != 1 || hs[0].Reason != HaltCap || hs[0].Cap != "$5.00" {
		t.Fatalf("halts recorded: %+v, want one, the cap", hs)
	}
	sub := call(root, tr, PreToolUse, e, "Read", `{"file_path":"/x"}`)
	sub.Agent = "a123"
	if a := decide(t, sub); a.Deny == "" {
		t.Errorf("a subagent's call at the cap was not denied: %+v", a)
	}
	if a := decide(t, call(root, tr, PreToolUse, e, "Bash", `{"command":"context-budget budget status"}`)); a != (Answer{}) {
		t.Errorf("budget status at the cap: %+v, want it allowed", a)
	}
	for _, ev := range []string{Stop, SubagentStop} {
		if a := decide(t, call(root, tr, ev, e, "", "")); !strings.Contains(a.Stop, "$5.50") {
			t.Errorf("%s at the cap: %+v, want a stop", ev, a)
		}
	}
	// Token caps count all four fields.
	if a := decide(t, call(root, tr, PreToolUse, env{tuning.EnvSpend: "11m"}, "Bash", bashLs)); a.Deny == "" {
		t.Errorf("11m tokens spent against an 11m cap: %+v", a)
	}
	if a := decide(t, call(root, tr, PreToolUse, env{tuning.EnvSpend: "12m"}, "Bash", bashLs)); a.Deny != "" {
		t.Errorf("11m tokens spent against a 12m cap denied: %+v", a)
	}
}

func TestWarnOncePerPeriod(t *testing.T) {
	root, tr := project(t, 4.2)
	e := env{tuning.EnvSpend: "$5"}
	a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs))
	if a.Deny != "" || !strings.Contains(a.Context, "84%") || !strings.Contains(a.Context, "Stopping partway releases the plan") || a.System == "" {
		t.Fatalf("at 84%%: %+v", a)
	}
	if a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs)); a != (Answer{}) {
		t.Fatalf("the warning repeated: %+v", a)
	}
	// A reset is a new period: past 80% of it, it warns again.
	ss := Target{Root: root, ID: "sess", Transcript: tr, Getenv: e.get, Now: now}
	if err := Reset(ss); err != nil {
		t.Fatal(err)
	}
	if a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs)); a != (Answer{}) {
		t.Fatalf("just after a reset: %+v", a)
	}
	appendTo(t, tr, response("late", 4.5, false))
	if a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs)); !strings.Contains(a.Context, "$4.50 of its $5.00") {
		t.Fatalf("past 80%% after the reset: %+v", a)
	}
}

func TestArmFromNowAndDisarm(t *testing.T) {
	root, tr := project(t, 10)
	ss := Target{Root: root, ID: "sess", Transcript: tr, Getenv: env{}.get, Now: now}
	if err := ArmCap(ss, mustAmount(t, "$1")); err != nil {
		t.Fatal(err)
	}
	if a := decide(t, call(root, tr, PreToolUse, env{}, "Bash", bashLs)); a.Deny != "" {
		t.Fatalf("armed from now, the $10 before counted: %+v", a)
	}
	appendTo(t, tr, response("new", 1.2, false))
	if a := decide(t, call(root, tr, PreToolUse, env{}, "Bash", bashLs)); !strings.Contains(a.Deny, "$1.20 of its $1.00") {
		t.Fatalf("past the armed cap: %+v", a)
	}
	// Disarm lifts the environment's cap too.
	if err := Disarm(ss); err != nil {
		t.Fatal(err)
	}
	if a := decide(t, call(root, tr, PreToolUse, env{tuning.EnvSpend: "$1"}, "Bash", bashLs)); a != (Answer{}) {
		t.Fatalf("disarmed: %+v", a)
	}
}

// TestLoopHalts: MUTHUR_CONTEXT_BUDGET_LOOP=5 set, the sixth identical
// call is denied and the turn ends there, which releases the halt and
// records it; unset, the loop halt holds only while a cap is armed; 0 is
// off.
func TestLoopHalts(t *testing.T) {
	root, tr := project(t)
	in := json.RawMessage(`{"command":"make test","description":"run"}`)
	same := json.RawMessage(`{ "description":"run", "command":"make test" }`)
	set := tuning.Fuse{Loop: 5, LoopSet: true}
	for i := range 4 {
		if err := RecordCall(env{}.get, root, "sess", "", "Bash", [...]json.RawMessage{in, same}[i%2], set); err != nil {
			t.Fatal(err)
		}
	}
	if a := decide(t, call(root, tr, PreToolUse, env{}, "Bash", string(in))); a != (Answer{}) {
		t.Fatalf("after 4 identical calls: %+v", a)
	}
	RecordCall(env{}.get, root, "sess", "", "Bash", in, set)
	a := decide(t, call(root, tr, PreToolUse, env{}, "Read", `{"file_path":"/x"}`))
	for _, want := range []string{"5 times in a row (Bash: make test)", "context-budget budget reset", "MUTHUR_CONTEXT_BUDGET_LOOP=0"} {
		if !strings.Contains(a.Deny, want) || !strings.Contains(a.Stop, want) {
			t.Fatalf("after 5 identical calls: %+v, want a deny and a stop saying %q", a, want)
		}
	}
	if a := decide(t, call(root, tr, PreToolUse, env{}, "Bash", string(in))); a != (Answer{}) {
		t.Fatalf("after the halt ended the turn: %+v", a)
	}
	hs := Halts(fdir(root), "sess")
	if len(hs) != 1 || hs[0].Reason != HaltLoop || !strings.Contains(hs[0].Words, "make test") {
		t.Fatalf("halts: %+v", hs)
	}
	// What leaves the machine names the tool, not its command.
	if got, want := SharedWords(hs[0]), "the same tool call ran 5 times in a row (Bash)"; got != want {
		t.Errorf("shared words %q, want %q", got, want)
	}
	for _, h := range []Halt{{Reason: HaltFuse, Words: "cannot read ~/.claude"}, {Reason: HaltLoop, Words: "no call named"}} {
		if got := SharedWords(h); got != "" {
			t.Errorf("shared words of %+v: %q, want none", h, got)
		}
	}
	// Unset and unarmed: off. Unset and armed: the default.
	unset := tuning.Fuse{Loop: tuning.DefaultLoop}
	for range 9 {
		RecordCall(env{}.get, root, "quiet", "", "Bash", in, unset)
	}
	if _, ok, _ := LoadArm(fdir(root), "quiet"); ok {
		t.Errorf("the default loop halt held with no cap armed")
	}
	armed := tuning.Fuse{Loop: tuning.DefaultLoop, Spend: tuning.Amount{USD: 5}}
	for range tuning.DefaultLoop {
		RecordCall(env{}.get, root, "capped", "", "Bash", in, armed)
	}
	if a, _, _ := LoadArm(fdir(root), "capped"); a.Loop == nil {
		t.Errorf("the default loop halt did not hold with a cap armed")
	}
	// A different call in between breaks the run; 0 is off.
	for i := range 9 {
		tool := "Bash"
		if i%4 == 3 {
			tool = "Read"
		}
		RecordCall(env{}.get, root, "broken", "", tool, in, set)
		RecordCall(env{}.get, root, "other", "", "Bash", in, tuning.Fuse{LoopSet: true})
	}
	if _, ok, _ := LoadArm(fdir(root), "broken"); ok {
		t.Errorf("a broken run halted")
	}
	if _, ok, _ := LoadArm(fdir(root), "other"); ok {
		t.Errorf("MUTHUR_CONTEXT_BUDGET_LOOP=0 halted")
	}
}

// TestDayCapAcrossSessions: the project's spend today is this session's,
// the other live sessions' tallies, and the ledger rows of today of the
// sessions without one; yesterday's spend does not count.
func TestDayCapAcrossSessions(t *testing.T) {
	root, tr := project(t, 1)
	e := env{tuning.EnvSpendDay: "$10"}
	other := filepath.Join(root, "other.jsonl")
	os.WriteFile(other, []byte(response("o1", 5, false)), 0o644)
	oc := call(root, other, PreToolUse, e, "Bash", bashLs)
	oc.Session = "other"
	if a := decide(t, oc); a != (Answer{}) {
		t.Fatalf("other session at $5 of $10: %+v", a)
	}
	row := &ledger.Row{SessionID: "old", FirstResponseAt: "2026-12-01T01:00:00Z", LastResponseAt: "2026-12-01T02:00:00Z",
		Total: ledger.Tally{CostUSD: 3.5}}
	if _, err := ledger.Write(root, row); err != nil {
		t.Fatal(err)
	}
	row2 := &ledger.Row{SessionID: "yesterday", FirstResponseAt: "2026-11-30T01:00:00Z", LastResponseAt: "2026-11-30T02:00:00Z",
		Total: ledger.Tally{CostUSD: 50}}
	ledger.Write(root, row2)
	a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs))
	if !strings.Contains(a.Deny, "$9.50 today") && !strings.Contains(a.Context, "$9.50 today") {
		t.Fatalf("project today: %+v, want $9.50 counted (1 + 5 + 3.50)", a)
	}
	appendTo(t, tr, response("m9", 1, false))
	if a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs)); !strings.Contains(a.Deny, "$10.50 today (UTC) of its $10.00 daily cap") {
		t.Fatalf("past the day cap: %+v", a)
	}
	// The first call of a new day is under the cap again.
	next := call(root, tr, PreToolUse, e, "Bash", bashLs)
	next.Now = now.Add(24 * time.Hour)
	if a := decide(t, next); a.Deny != "" {
		t.Fatalf("a new day still denied: %+v", a)
	}
}

func TestSubagentSpendCounts(t *testing.T) {
	root, tr := project(t, 1)
	subs := filepath.Join(strings.TrimSuffix(tr, ".jsonl"), "subagents")
	os.MkdirAll(subs, 0o755)
	os.WriteFile(filepath.Join(subs, "agent-a1.jsonl"), []byte(response("s1", 4.5, true)), 0o644)
	if a := decide(t, call(root, tr, PreToolUse, env{tuning.EnvSpend: "$5"}, "Bash", bashLs)); !strings.Contains(a.Deny, "$5.50") {
		t.Fatalf("with a subagent's $4.50: %+v", a)
	}
}

func TestBurnWarnsOncePerSpell(t *testing.T) {
	root, tr := project(t, 3)
	e := env{tuning.EnvBurn: "2"}
	if a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs)); !strings.Contains(a.Context, "$3.00 in the last 5 minutes") {
		t.Fatalf("burn: %+v", a)
	}
	if a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs)); a != (Answer{}) {
		t.Fatalf("burn repeated in the spell: %+v", a)
	}
	later := call(root, tr, PreToolUse, e, "Bash", bashLs)
	later.Now = now.Add(10 * time.Minute)
	decide(t, later)
	appendTo(t, tr, strings.Replace(response("b2", 2.5, false), stamp0, "2026-12-01T10:11:00.000Z", 1))
	later.Now = now.Add(11 * time.Minute)
	if a := decide(t, later); !strings.Contains(a.Context, "burn") {
		t.Fatalf("a new spell did not warn: %+v", a)
	}
}

// TestInvalidEnv: unarmed, an invalid variable is an error and no
// answer; while a cap holds (from the environment or the CLI) it cannot
// lift it: the call is denied and the turn ended, naming the variable,
// and the halt recorded.
func TestInvalidEnv(t *testing.T) {
	root, tr := project(t, 1)
	for _, e := range []env{{tuning.EnvSpend: "lots"}, {tuning.EnvSpendDay: "$-1"}, {tuning.EnvLoop: "1"}, {tuning.EnvLoop: "x"}, {tuning.EnvBurn: "0"}} {
		a, err := Decide(call(root, tr, PreToolUse, e, "Bash", bashLs))
		if err == nil || a != (Answer{}) {
			t.Errorf("%v: %+v, %v; want an error and no answer", e, a, err)
		}
	}
	for _, e := range []env{{tuning.EnvSpend: "$5", tuning.EnvLoop: "x"}, {tuning.EnvSpendDay: "$50", tuning.EnvBurn: "0"},
		{tuning.EnvSpend: "$5", tuning.EnvSpendDay: "lots"}} {
		a, err := Decide(call(root, tr, PreToolUse, e, "Bash", bashLs))
		if err != nil || a.Deny == "" || a.Stop == "" || !strings.Contains(a.Deny, "MUTHUR_CONTEXT_BUDGET_") {
			t.Errorf("%v: %+v, %v; want a deny naming the variable", e, a, err)
		}
	}
	if h := Halts(fdir(root), "sess"); len(h) == 0 || h[len(h)-1].Reason != HaltFuse {
		t.Errorf("halts recorded: %+v", h)
	}
	other, tr2 := project(t, 1)
	if err := ArmCap(Target{Root: other, ID: "sess", Transcript: tr2, Getenv: env{}.get, Now: now}, mustAmount(t, "$5")); err != nil {
		t.Fatal(err)
	}
	if a, err := Decide(call(other, tr2, PreToolUse, env{tuning.EnvLoop: "x"}, "Bash", bashLs)); err != nil || a.Deny == "" {
		t.Errorf("an invalid loop under the CLI's cap: %+v, %v", a, err)
	}
}

func TestUnpricedCountsNothingAgainstDollars(t *testing.T) {
	root := t.TempDir()
	tr := filepath.Join(root, "sess.jsonl")
	os.WriteFile(tr, []byte(strings.Replace(response("m", 10, false), "claude-opus-4-6", "mystery-model", 1)), 0o644)
	if a := decide(t, call(root, tr, PreToolUse, env{tuning.EnvSpend: "$1"}, "Bash", bashLs)); a.Deny != "" {
		t.Fatalf("unpriced spend against a dollar cap: %+v", a)
	}
	if a := decide(t, call(root, tr, PreToolUse, env{tuning.EnvSpend: "1m"}, "Bash", bashLs)); a.Deny == "" {
		t.Fatalf("unpriced tokens against a token cap: %+v", a)
	}
	st, err := ReadStatus(Target{Root: root, ID: "sess", Transcript: tr, Getenv: env{tuning.EnvSpend: "$1"}.get, Now: now})
	if err != nil || len(st.Caps) != 1 || st.Caps[0].Spent.UnpricedTokens == 0 || len(st.Unpriced) != 1 {
		t.Fatalf("status: %+v, %v", st, err)
	}
}

func mustAmount(t *testing.T, s string) tuning.Amount {
	a, err := tuning.ParseAmount(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestTallyRefusesLink: a link planted at the tally's name (to a file out
// of the fuse's folder) is not read nor written through: armed, the call
// cannot read its tally, so it denies, naming the cause, and ends the
// turn; a write replaces the link, never its target.
func TestTallyRefusesLink(t *testing.T) {
	root, tr := project(t, 1)
	outside := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(outside, []byte("keep\n"), 0o644)
	dir := fdir(root)
	fo, err := openFolder(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer fo.close()
	if err := os.Symlink(outside, TallyName(dir, "sess")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	e := env{tuning.EnvSpend: "$5"}
	a := decide(t, call(root, tr, PreToolUse, e, "Bash", bashLs))
	if !strings.Contains(a.Deny, "cannot decide") || !strings.Contains(a.Deny, "tally") || a.Stop == "" {
		t.Fatalf("with a link at the tally: %+v, want a deny naming the tally", a)
	}
	if got, _ := os.ReadFile(outside); string(got) != "keep\n" {
		t.Fatalf("the tally was written through a link: the target now holds %q", got)
	}
	if err := fo.saveTally("sess", &Tally{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(outside); string(got) != "keep\n" {
		t.Fatalf("saveTally wrote through a link: the target now holds %q", got)
	}
	if fi, err := os.Lstat(TallyName(dir, "sess")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by the tally: %v", err)
	}
}

// TestCallsFileCount: a call is counted in the calls file, and a long
// tool name with an input at the size the file keeps as it came still
// fits LoadCalls' read, so the count goes on (an input that is large with
// the tool's name is kept as a hash).
func TestCallsFileCount(t *testing.T) {
	root, _ := project(t)
	for _, c := range []struct {
		tool  string
		input json.RawMessage
	}{
		{"Bash", json.RawMessage(`{"command":"go test ./..."}`)},
		{"mcp__plugin_playwright_playwright__browser_navigate_with_a_long_name",
			json.RawMessage(`{"url":"` + strings.Repeat("x", maxCallKey-10) + `"}`)},
	} {
		session := "calls" + strconv.Itoa(len(c.tool))
		for i := 1; i <= 3; i++ {
			if err := RecordCall(env{}.get, root, session, "", c.tool, c.input, tuning.Fuse{}); err != nil {
				t.Fatal(err)
			}
			if was := LoadCalls(root, session, ""); was.count != i {
				t.Fatalf("%s, call %d: count %d", c.tool, i, was.count)
			}
		}
	}
}
