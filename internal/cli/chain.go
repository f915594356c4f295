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
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/ledger"
)

const runUsage = "context-budget run [--max-relays N] [--max-usd AMOUNT] [--claude PATH] [--json] PROMPT [-- CLAUDE_ARGS…]"

// reservedArgs are claude's flags the runner sets itself: each session
// runs headless with the stream it reads, under its own id and the
// chain's budget, as a new session.
var reservedArgs = []string{"-p", "--print", "--output-format", "--session-id", "--max-budget-usd",
	"-r", "--resume", "-c", "--continue", "--fork-session", "--no-session-persistence"}

// runChain is `context-budget run`: a relay chain in the foreground.
func runChain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("run", runUsage)
	maxRelays := fs.Int("max-relays", 10, "start at most `N` successors (N+1 sessions)")
	maxUSD := fs.String("max-usd", "", "the chain's budget in dollars at API rates, `AMOUNT` such as 0.10 or '$5' (default: none)")
	claudeFlag := fs.String("claude", "", "the claude program, `PATH` (default: claude on PATH)")
	asJSON := fs.Bool("json", false, "print one JSON object at the end, and the sessions' text on stderr")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *maxRelays < 0 {
		return usageError(stderr, "run", fmt.Errorf("--max-relays %d: a number of relays is 0 or more", *maxRelays))
	}
	budget := 0.0
	if *maxUSD != "" {
		var err error
		if budget, err = parseUSD(*maxUSD); err != nil {
			return usageError(stderr, "run", err)
		}
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
		if errors.Is(err, chain.ErrDetached) {
			hint = "switch to a branch: a successor takes the work up by the branch's name"
		}
		return runUsageError(stderr, fmt.Errorf("%s: %w", dir, err), hint)
	}

	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	out := stdout
	if *asJSON {
		out = stderr
	}
	sum := chain.Run(chain.Config{
		Claude: claude, Prompt: prompt, Args: claudeArgs, Dir: dir,
		MaxRelays: *maxRelays, MaxUSD: budget, Environ: os.Environ(),
		Out: out, Notes: stderr, Signals: signals,
		Halt: haltWords, Record: recordChainRow, Decide: decideAt,
	})
	if *asJSON {
		printChainJSON(stdout, sum)
	} else {
		printChain(stdout, sum)
	}
	return sum.Stopped.Exit()
}

// runUsageError prints a usage error with its own hint and returns exit
// status 2: bad input found before anything started.
func runUsageError(stderr io.Writer, err error, hint string) int {
	printf(stderr, "context-budget: error: %v\ncontext-budget: hint: %s\n", err, hint)
	return 2
}

// parseUSD reads --max-usd: a plain number of dollars, a leading $
// accepted.
func parseUSD(s string) (float64, error) {
	v := strings.TrimPrefix(strings.TrimSpace(s), "$")
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) || f > 1e6 {
		return 0, fmt.Errorf("--max-usd %s: not an amount of dollars such as 0.10 or 5", s)
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

// haltWords says what the spend fuse recorded of a halted session's last
// halt (a cap, the day's cap, a loop, a call it could not decide), ""
// when it recorded none: under claude -p the hook's stop reason never
// reaches the runner, so the fuse records it where the runner reads it.
func haltWords(root, session, _ string, getenv func(string) string) string {
	return fuse.HaltWords(getenv, root, session, time.Time{})
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

// printChain writes the chain's table: one row per session, the chain's
// spend, and beside it what one session carrying on would have cost by
// the forecast.
func printChain(w io.Writer, sum chain.Summary) {
	printf(w, "\nchain %s stopped: %s (exit %d): %s\n", sum.Chain, sum.Stopped, sum.Stopped.Exit(), stoppedWords(sum.Stopped))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tsession\tprompt\tended\tcost")
	for _, s := range sum.Sessions {
		printf(tw, "%d\t%s\t%s\t%s\t%s\n", s.Place, s.ID, clip(chain.OneLine(s.Prompt), 40), s.Ended, notice.USD(s.CostUSD))
	}
	printf(tw, "\tchain\t%d sessions\t\t%s\n", len(sum.Sessions), notice.USD(sum.CostUSD))
	tw.Flush()
	for _, s := range sum.Sessions {
		if s.Note != "" {
			printf(w, "session %d: %s\n", s.Place, s.Note)
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
		chain.Finished:    "the last session ended without handing over",
		chain.MaxRelays:   "it handed over as often as --max-relays allows",
		chain.MaxUSD:      "its budget is spent",
		chain.Halted:      "a hook stopped the last session",
		chain.NoProgress:  "two sessions in a row handed over having changed nothing outside .claude/",
		chain.Paused:      "the last session paused for its context budget and offered /relay; it waits for you",
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
	// ForecastUSD is what one session carrying on would have cost by
	// the cost model's forecast; null when there is none.
	ForecastUSD *float64      `json:"forecast_usd"`
	Sessions    []sessionJSON `json:"sessions"`
}

type sessionJSON struct {
	SessionID  string  `json:"session_id"`
	Place      int     `json:"place"`
	Prompt     string  `json:"prompt"`
	HandedOver bool    `json:"handed_over"`
	Ended      string  `json:"ended"`
	CostUSD    float64 `json:"cost_usd"`
	Exit       int     `json:"exit"`
	Note       string  `json:"note,omitempty"`
}

// printChainJSON writes the chain as one JSON object.
func printChainJSON(w io.Writer, sum chain.Summary) {
	out := chainJSON{Chain: sum.Chain, Stopped: string(sum.Stopped), Exit: sum.Stopped.Exit(),
		CostUSD: *dollars(sum.CostUSD), Sessions: []sessionJSON{}}
	if f := sum.Forecast; f != nil {
		out.ForecastUSD = dollars(f.USD)
	}
	for _, s := range sum.Sessions {
		out.Sessions = append(out.Sessions, sessionJSON{SessionID: s.ID, Place: s.Place, Prompt: s.Prompt,
			HandedOver: s.HandedOver, Ended: string(s.Ended), CostUSD: *dollars(s.CostUSD), Exit: s.Exit, Note: s.Note})
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	writeJSON(w, data)
}
