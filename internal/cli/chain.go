package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/muthur/context-budget/internal/chain"
	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/ledger"
)

const runUsage = "context-budget run [--max-relays N] [--max-usd AMOUNT|none] [--claude PATH] [--json] PROMPT [-- CLAUDE_ARGS…]\n" +
	"context-budget run --chain ID [--resume SESSION] [--max-relays N] [--max-usd AMOUNT|none] [--claude PATH] [--json] PROMPT [-- CLAUDE_ARGS…]"

// defaultMaxUSD is the chain's budget when --max-usd is not given: one
// finite amount, the same in the flag, help run, the README and the line
// that starts a chain.
const defaultMaxUSD = "5"

// reservedArgs are claude's flags the runner sets itself: each session
// runs headless with the stream it reads, under its own id and the
// chain's budget, as a new session (or the one --resume names).
var reservedArgs = []string{"-p", "--print", "--output-format", "--session-id", "--max-budget-usd",
	"-r", "--resume", "-c", "--continue", "--fork-session", "--no-session-persistence"}

// runChain is `context-budget run`: a relay chain in the foreground.
func runChain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("run", runUsage)
	maxRelays := fs.Int("max-relays", 10, "start at most `N` successors (N+1 sessions), counted over the whole chain")
	maxUSD := fs.String("max-usd", defaultMaxUSD, "the whole chain's budget in dollars at API rates, `AMOUNT` such as 0.10 or '$5', or none")
	claudeFlag := fs.String("claude", "", "the claude program, `PATH` (default: claude on PATH)")
	chainID := fs.String("chain", "", "carry on the chain `ID`: its places count on, and its rows' spend counts against --max-usd")
	resume := fs.String("resume", "", "with --chain: the chain's next place resumes `SESSION` with PROMPT as the answer it waits for")
	asJSON := fs.Bool("json", false, "print one JSON object at the end, and the sessions' text on stderr")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *maxRelays < 0 {
		return usageError(stderr, "run", fmt.Errorf("--max-relays %d: a number of relays is 0 or more", *maxRelays))
	}
	budget, err := parseUSD(*maxUSD)
	if err != nil {
		return usageError(stderr, "run", err)
	}
	if *chainID != "" && (len(*chainID) > ledger.MaxChain || !state.PlainName(*chainID)) {
		return usageError(stderr, "run", fmt.Errorf("--chain %s: not a chain's id", *chainID))
	}
	if *resume != "" && (*chainID == "" || !state.PlainName(*resume)) {
		return usageError(stderr, "run", fmt.Errorf("--resume %s: a session id, with --chain", *resume))
	}
	rest := fs.Args()
	if len(rest) == 0 || strings.TrimSpace(rest[0]) == "" {
		return usageError(stderr, "run", errors.New("no prompt given"))
	}
	prompt, claudeArgs := rest[0], rest[1:]
	if len(claudeArgs) > 0 {
		if claudeArgs[0] != "--" {
			return usageError(stderr, "run", fmt.Errorf("unexpected argument %q after the prompt: put claude's own arguments after --", claudeArgs[0]))
		}
		claudeArgs = claudeArgs[1:]
	}
	if a := reserved(claudeArgs); a != "" {
		return usageError(stderr, "run", fmt.Errorf("%s among claude's arguments: the runner sets it for each session", a))
	}
	claude, err := findClaude(*claudeFlag)
	if err != nil {
		return runUsageError(stderr, err, "install Claude Code, or name the program with --claude PATH")
	}
	dir, err := os.Getwd()
	if err != nil {
		return fail(stderr, err, "")
	}
	if _, err := chain.CheckTree(dir); err != nil {
		hint := "run it in the git work tree the sessions work on: they hand over by committing on its branch"
		switch {
		case errors.Is(err, chain.ErrDetached):
			hint = "switch to a branch: a successor takes the work up by the branch's name"
		case errors.Is(err, chain.ErrNoCommit):
			hint = "commit something first (git commit --allow-empty -m start): the runner commits each session's ledger row on the branch, and a successor starts from its head"
		}
		return runUsageError(stderr, fmt.Errorf("%s: %w", dir, err), hint)
	}
	if err := chain.CheckArgs(dir, claudeArgs); err != nil {
		return usageError(stderr, "run", err)
	}
	if *resume != "" && findSessionTranscript(*resume) == "" {
		return runUsageError(stderr, fmt.Errorf("--resume %s: no transcript of that session", *resume),
			"name a session of the chain, as its waiting stop printed it")
	}
	tab, _, err := priceTable(dir, os.Getenv, false)
	if err != nil {
		return fail(stderr, err, "fix or remove the price file it names: the chain's spend is priced with it")
	}

	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	// Every byte of a session's text and of claude's own errors reaches
	// the terminal escaped (output.go).
	out := &shownWriter{w: stdout}
	if *asJSON {
		out = &shownWriter{w: stderr}
	}
	notes := &shownWriter{w: stderr}
	sum := chain.Run(chain.Config{
		Claude: claude, Prompt: prompt, Args: claudeArgs, Dir: dir,
		Chain: *chainID, Resume: *resume,
		MaxRelays: *maxRelays, MaxUSD: budget, Environ: os.Environ(),
		Out: out, Notes: notes, Signals: signals,
		Price: fuse.TablePricer(tab), Keeper: keeper(),
		Halt: haltWords, Record: recordChainRow, Decide: decideAt,
	})
	out.Flush()
	notes.Flush()
	carry := carryOn{claude: *claudeFlag, json: *asJSON, args: claudeArgs}
	if carry.claude != "" {
		carry.claude = claude
	}
	if *asJSON {
		printChainJSON(stdout, sum, carry)
	} else {
		printChain(stdout, sum, carry)
	}
	return sum.Stopped.Exit()
}

// keeper is the command that keeps a session's process tree: this
// program's hidden keep command, on a system with process groups; nil
// elsewhere.
func keeper() []string {
	if runtime.GOOS == "windows" {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return []string{exe, "keep"}
}

// runKeep is `context-budget-cli keep PROGRAM ARGS…`, not in the table:
// the runner starts each session's claude through it (chain.Keep).
func runKeep(args []string, _ io.Reader, _, stderr io.Writer) int {
	return chain.Keep(args, stderr)
}

// findSessionTranscript is a session's transcript under the user's
// Claude Code configuration folder, "" when there is none.
func findSessionTranscript(id string) string {
	home, _ := os.UserHomeDir()
	found, _ := filepath.Glob(filepath.Join(settings.ConfigDir(os.Getenv, home), "projects", "*", id+".jsonl"))
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

// runUsageError prints a usage error with its own hint and returns exit
// status 2: bad input found before anything started.
func runUsageError(stderr io.Writer, err error, hint string) int {
	printf(stderr, "context-budget: error: %v\ncontext-budget: hint: %s\n", err, hint)
	return 2
}

// parseUSD reads --max-usd: a plain number of dollars, a leading $
// accepted, or none (0: no budget).
func parseUSD(s string) (float64, error) {
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		return 0, nil
	}
	v := strings.TrimPrefix(strings.TrimSpace(s), "$")
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) || f > 1e6 {
		return 0, fmt.Errorf("--max-usd %s: not an amount of dollars such as 0.10 or 5, nor none", s)
	}
	return f, nil
}

// reserved returns the first of claude's arguments the runner owns, ""
// for none.
func reserved(args []string) string {
	for _, a := range args {
		if name, _, _ := strings.Cut(a, "="); slices.Contains(reservedArgs, name) {
			return name
		}
	}
	return ""
}

// findClaude is the claude program: --claude's, else claude on PATH.
func findClaude(flagValue string) (string, error) {
	if flagValue != "" {
		p, err := exec.LookPath(flagValue)
		if err != nil {
			return "", fmt.Errorf("--claude %s: not a program that can run", flagValue)
		}
		return filepath.Abs(p)
	}
	p, err := exec.LookPath("claude")
	if err != nil {
		return "", errors.New("no claude on PATH")
	}
	return p, nil
}

// haltWords says what the spend fuse recorded of a session's last halt
// since since (a cap, the day's cap, a loop, a call it could not
// decide), "" when it recorded none, and whether that halt ends the turn
// (all but a call it could not decide, which may only deny that call):
// under claude -p the hook's stop reason never reaches the runner, so
// the fuse records it where the runner reads it.
func haltWords(root, session string, getenv func(string) string, since time.Time) (string, bool) {
	words := fuse.HaltWords(getenv, root, session, since)
	if words == "" {
		return "", false
	}
	hs := fuse.Halts(fuse.Dir(getenv, root), session)
	return words, hs[len(hs)-1].Reason != fuse.HaltFuse
}

// recordChainRow writes the row of a session of a chain whose Stop hook
// did not run, as the hook would have, naming the chain and the place.
func recordChainRow(root, transcript, session, chainID string, place int) error {
	_, err := recordRow(root, transcript, session, os.Getenv, io.Discard, func(r *ledger.Row) { r.Chain, r.Place = chainID, place })
	return err
}

// decideAt is a finished session's cost model at its last reading, as
// `lines` decides it for its transcript, priced whatever the lines'
// setting (the forecast is about cost, not where the lines fall); ok is
// false when the session has no price.
func decideAt(root, transcript, session string) (lines.Decision, int64, bool) {
	home, _ := os.UserHomeDir()
	getenv, _ := settings.Env(os.Getenv, settings.ConfigDir(os.Getenv, home), root)
	s, err := tuning.FromEnv(getenv)
	if err != nil {
		return lines.Decision{}, 0, false
	}
	s.Fixed = false
	r, err := reading.Read(transcript, reading.Options{})
	if err != nil {
		return lines.Decision{}, 0, false
	}
	table, _, err := priceTable(root, getenv, false)
	if err != nil {
		return lines.Decision{}, 0, false
	}
	in, err := transcriptInput(s, r, table, transcript, root, session, getenv)
	if err != nil {
		return lines.Decision{}, 0, false
	}
	d := lines.Decide(in)
	return d, r.Tokens, d.Priced
}

// carryOn is what a stopped chain's next command keeps of this one: the
// claude program given (absolute), --json, and claude's arguments.
type carryOn struct {
	claude string
	json   bool
	args   []string
}

// nextArgv is the command that carries the chain on (chain.Next), nil
// when it finished.
func nextArgv(sum chain.Summary, c carryOn) []string {
	n := sum.Next
	if n == nil {
		return nil
	}
	argv := []string{"context-budget", "run", "--chain", sum.Chain, "--max-relays", strconv.Itoa(n.MaxRelays), "--max-usd", usdFlag(n.MaxUSD)}
	if c.claude != "" {
		argv = append(argv, "--claude", c.claude)
	}
	if c.json {
		argv = append(argv, "--json")
	}
	if n.Resume != "" {
		argv = append(argv, "--resume", n.Resume)
	}
	argv = append(argv, n.Prompt)
	if len(c.args) > 0 {
		argv = append(append(argv, "--"), c.args...)
	}
	return argv
}

// usdFlag writes a budget as --max-usd reads it.
func usdFlag(v float64) string {
	if v <= 0 {
		return "none"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// shellQuote writes argv as one line a POSIX shell reads back as argv.
func shellQuote(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// printChain writes the chain's table: one row per session, the chain's
// spend, and beside it what one session carrying on would have cost by
// the forecast; the sessions counted with each, a waiting session's last
// words, and the command that carries on.
func printChain(w io.Writer, sum chain.Summary, c carryOn) {
	printf(w, "\nchain %s stopped: %s (exit %d): %s\n", sum.Chain, sum.Stopped, sum.Stopped.Exit(), stoppedWords(sum.Stopped))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tsession\tprompt\tended\tcost")
	for _, s := range sum.Sessions {
		printf(tw, "%d\t%s\t%s\t%s\t%s\n", s.Place, s.ID, clip(chain.OneLine(s.Prompt), 40), s.Ended, notice.USD(s.CostUSD))
	}
	total := fmt.Sprintf("%d sessions", len(sum.Sessions))
	printf(tw, "\tchain\t%s\t\t%s\n", total, notice.USD(sum.CostUSD))
	if sum.EarlierUSD > 0 {
		budget := "no budget"
		if sum.MaxUSD > 0 {
			budget = "of its " + notice.USD(sum.MaxUSD)
		}
		printf(tw, "\twhole chain\tearlier %s\t\t%s %s\n", notice.USD(sum.EarlierUSD), notice.USD(sum.EarlierUSD+sum.CostUSD), budget)
	}
	tw.Flush()
	for _, s := range sum.Sessions {
		for _, n := range s.Counted {
			printf(w, "session %d: counted with it: session %s, %s (a session it started)\n", s.Place, n.ID, notice.USD(n.CostUSD))
		}
		for i, why := range s.Retried {
			printf(w, "session %d: start %d failed before its first response and was made again: %s\n", s.Place, i+1, why)
		}
		if s.Note != "" {
			printf(w, "session %d: %s\n", s.Place, s.Note)
		}
		if len(s.Tampered) > 0 {
			printf(w, "session %d: the spend fuse's tally saw tampering (%s); its cost is what the tally kept\n", s.Place, strings.Join(s.Tampered, "; "))
		}
		if s.LastWords != "" {
			printf(w, "session %d asks:\n", s.Place)
			for _, line := range strings.Split(s.LastWords, "\n") {
				printf(w, "  %s\n", line)
			}
		}
	}
	if f := sum.Forecast; f != nil {
		diff := "as much"
		switch d := f.USD - sum.CostUSD; {
		case d >= 0.005:
			diff = notice.USD(d) + " less"
		case d <= -0.005:
			diff = notice.USD(-d) + " more"
		}
		// The real alternative to the chain (design §4.2): one session,
		// compacted by Claude Code wherever its window would have.
		how, compacting := "carrying on", ""
		if f.Compactions > 0 {
			how = "letting Claude Code compact"
			compacting = fmt.Sprintf(", compacting at ~%s %s", notice.K(f.CompactAt), times(f.Compactions))
		}
		printf(w, "One session %s would have cost about %s by the cost model's forecast (not measured): session 1's %s, then the successors' %s tokens of work from its %s at %s's pace and prices%s. The chain cost %s, %s.\n",
			how, notice.USD(f.USD), notice.USD(f.FirstUSD), notice.K(f.Growth), notice.K(f.From), f.Model, compacting, notice.USD(sum.CostUSD), diff)
	}
	if argv := nextArgv(sum, c); argv != nil {
		what := "To carry on in the same chain"
		if sum.Next.Answer {
			what = "To answer it and carry on in the same chain, put your answer in place of " + chain.AnswerPlaceholder
		}
		printf(w, "%s:\n  %s\n", what, shellQuote(argv))
	}
}

// times says how often: "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// stoppedWords says why a chain stopped.
func stoppedWords(r chain.Reason) string {
	words := map[chain.Reason]string{
		chain.Finished:    "the last session ended without handing over, its work done",
		chain.MaxRelays:   "it ran as many sessions as --max-relays allows",
		chain.MaxUSD:      "its budget is spent",
		chain.Halted:      "a hook stopped the last session",
		chain.NoProgress:  "two sessions in a row handed over having changed nothing outside .claude/",
		chain.Paused:      "the last session paused for its context budget and offered /relay; it waits for your answer",
		chain.Waiting:     "the last session asks a person something, and waits for the answer",
		chain.Interrupted: "a signal ended it",
	}
	return cmp.Or(words[r], "a session failed")
}

// chainJSON is what run --json prints.
type chainJSON struct {
	Chain   string  `json:"chain"`
	Stopped string  `json:"stopped"`
	Exit    int     `json:"exit"`
	CostUSD float64 `json:"cost_usd"`
	// EarlierUSD is what the chain's sessions before this run cost, from
	// their ledger rows.
	EarlierUSD float64 `json:"earlier_usd"`
	// ForecastUSD is what one session carrying on would have cost by
	// the cost model's forecast; null when there is none.
	ForecastUSD *float64      `json:"forecast_usd"`
	Sessions    []sessionJSON `json:"sessions"`
	// Next is the command that carries on, null when it finished.
	Next []string `json:"next"`
}

type sessionJSON struct {
	SessionID  string        `json:"session_id"`
	Place      int           `json:"place"`
	Prompt     string        `json:"prompt"`
	HandedOver bool          `json:"handed_over"`
	Ended      string        `json:"ended"`
	CostUSD    float64       `json:"cost_usd"`
	Counted    []countedJSON `json:"counted,omitempty"`
	Retried    []string      `json:"retried,omitempty"`
	Exit       int           `json:"exit"`
	Note       string        `json:"note,omitempty"`
	Tampered   []string      `json:"tampered,omitempty"`
	LastWords  string        `json:"last_words,omitempty"`
}

type countedJSON struct {
	SessionID string  `json:"session_id"`
	CostUSD   float64 `json:"cost_usd"`
}

// printChainJSON writes the chain as one JSON object.
func printChainJSON(w io.Writer, sum chain.Summary, c carryOn) {
	out := chainJSON{Chain: sum.Chain, Stopped: string(sum.Stopped), Exit: sum.Stopped.Exit(),
		CostUSD: *dollars(sum.CostUSD), EarlierUSD: *dollars(sum.EarlierUSD), Sessions: []sessionJSON{}, Next: nextArgv(sum, c)}
	if f := sum.Forecast; f != nil {
		out.ForecastUSD = dollars(f.USD)
	}
	for _, s := range sum.Sessions {
		sj := sessionJSON{SessionID: s.ID, Place: s.Place, Prompt: s.Prompt, HandedOver: s.HandedOver, Ended: string(s.Ended),
			CostUSD: *dollars(s.CostUSD), Retried: s.Retried, Exit: s.Exit, Note: s.Note, Tampered: s.Tampered, LastWords: s.LastWords}
		for _, n := range s.Counted {
			sj.Counted = append(sj.Counted, countedJSON{n.ID, *dollars(n.CostUSD)})
		}
		out.Sessions = append(out.Sessions, sj)
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	writeJSON(w, data)
}
