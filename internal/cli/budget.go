package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

const budgetUsage = `context-budget budget [status] [--session ID] [--project DIR] [--json]
context-budget budget arm AMOUNT [--session ID] [--project DIR]
context-budget budget reset|disarm [--session ID] [--project DIR]`

// runBudget is the spend fuse's CLI: show the spend, arm a session cap
// from now, set a new baseline, or drop the cap. Lifting is the user's
// act: the hook denies the agent these verbs (all but status) while a cap
// holds, and they refuse to run inside a Claude Code session.
func runBudget(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	verb := "status"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		verb, args = args[0], args[1:]
	}
	fs := newFlags("budget", budgetUsage)
	id := fs.String("session", "", "the session `ID` (default: $CLAUDE_CODE_SESSION_ID, else the project's latest)")
	project := fs.String("project", "", "the project root `DIR` (default: $CLAUDE_PROJECT_DIR, else the git work tree)")
	asJSON := fs.Bool("json", false, "print the status as one JSON object")
	// Flags may come before or after the amount.
	var rest []string
	for {
		if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		rest, args = append(rest, fs.Arg(0)), fs.Args()[1:]
	}
	switch verb {
	case "arm":
		if len(rest) != 1 {
			return usageError(stderr, "budget", errors.New("budget arm takes one AMOUNT, such as '$5' or 2m (tokens)"))
		}
	case "status", "reset", "disarm":
		if len(rest) > 0 {
			return usageError(stderr, "budget", fmt.Errorf("budget %s takes no amount", verb))
		}
	default:
		return usageError(stderr, "budget", fmt.Errorf("unknown budget verb %q: arm, status, reset or disarm", verb))
	}
	if verb != "status" && *asJSON {
		return usageError(stderr, "budget", fmt.Errorf("--json is status's: budget %s prints the status as text", verb))
	}
	var cap tuning.Amount
	if verb == "arm" {
		var err error
		switch cap, err = tuning.ParseAmount(rest[0]); {
		case errors.Is(err, tuning.ErrEmpty):
			return runUsageError(stderr, err, "a bare $5 in a shell expands to nothing: quote it ('$5') or write 5usd; tokens are 2m or 500k")
		case errors.Is(err, tuning.ErrNoUnit):
			n := strings.TrimSpace(rest[0])
			return runUsageError(stderr, fmt.Errorf("budget arm %s: an amount needs a unit", n),
				fmt.Sprintf("write '$%s' (quoted, or %susd) for dollars, %sk or 2m for tokens", n, n, n))
		case err != nil:
			return usageError(stderr, "budget", err)
		}
	}
	if verb != "status" {
		if why := liftRefused(verb, os.Getenv, testOnlyOrigin()); why != "" {
			return fail(stderr, errors.New(why), "run it from your own terminal, outside Claude Code")
		}
	}
	root := projectRoot(*project)
	tg, err := findSession(root, *id)
	if err != nil {
		return fail(stderr, err, "name the session with --session ID (its transcript's name without .jsonl)")
	}
	switch verb {
	case "arm":
		if err := fuse.ArmCap(tg, cap); err != nil {
			return fail(stderr, err, "")
		}
		printf(stdout, "armed: session %s may spend %s from now\n", tg.ID, cap)
	case "reset":
		err := fuse.Reset(tg)
		if errors.Is(err, fuse.ErrNoCap) {
			return fail(stderr, err, "arm one with context-budget budget arm AMOUNT")
		}
		if err != nil {
			return fail(stderr, err, "")
		}
		printf(stdout, "reset: session %s counts its cap from now\n", tg.ID)
	case "disarm":
		if err := fuse.Disarm(tg); err != nil {
			return fail(stderr, err, "")
		}
		printf(stdout, "disarmed: session %s has no session cap (a daily cap from %s still holds)\n", tg.ID, tuning.EnvSpendDay)
	}
	st, err := fuse.ReadStatus(tg)
	if err != nil {
		return fail(stderr, err, "context-budget budget reset counts the session afresh from its transcripts")
	}
	if *asJSON {
		printBudgetJSON(stdout, tg.ID, st)
	} else {
		printBudget(stdout, tg.ID, st)
	}
	return 0
}

// capWords names a cap's kind and where it stands.
func capWords(c fuse.CapStatus) (what, standing string) {
	what = "session cap"
	if c.Kind == "day" {
		what = "project's cap today (UTC)"
	}
	switch share := c.Share(); {
	case share < 0.8:
		return what, "under"
	case share < 1:
		return what, "past the 80% warning"
	}
	return what, "holds: every tool call is denied"
}

// printBudget writes budget status.
func printBudget(w io.Writer, id string, st fuse.Status) {
	printf(w, "session %s: spent $%.2f, %s tokens", id, st.Total.USD, tuning.FormatTokens(st.Total.Tokens))
	if st.Subagents.Responses > 0 {
		printf(w, " (subagents $%.2f)", st.Subagents.USD)
	}
	fmt.Fprintln(w)
	if len(st.Caps) == 0 {
		if st.Disarmed {
			fmt.Fprintln(w, "  no cap: disarmed")
		} else {
			fmt.Fprintln(w, "  no cap armed")
		}
	}
	for _, c := range st.Caps {
		what, standing := capWords(c)
		printf(w, "  %s %s (%s): spent %s, %.0f%%, %s\n", what, c.Cap, c.Source, c.SpentText(), 100*c.Share(), standing)
		if c.Cap.USD > 0 && c.Spent.UnpricedTokens > 0 {
			printf(w, "    %s tokens on unpriced models (%s) count nothing against this dollar cap\n",
				tuning.FormatTokens(c.Spent.UnpricedTokens), strings.Join(st.Unpriced, ", "))
		}
	}
	if st.Loop != nil {
		printf(w, "  loop halt: %s ran %d times in a row; released at the turn's end or by budget reset\n", st.Loop.Call, st.Loop.Count)
	}
	for _, h := range lastHalts(st.Halts) {
		printf(w, "  halted %s (%s", h.At, h.Reason)
		if h.Cap != "" {
			printf(w, ", %s", h.Cap)
		}
		printf(w, "): %s\n", h.Words)
	}
	for _, t := range st.Tampered {
		printf(w, "  the tally saw tampering: %s (budget reset clears this)\n", t)
	}
	if st.Tuning.BurnUSD > 0 {
		printf(w, "  burn: $%.2f in the last 5 minutes (warns at $%.2f)\n", st.Burn, st.Tuning.BurnUSD)
	}
}

// lastHalts are the halts status prints: the last five.
func lastHalts(hs []fuse.Halt) []fuse.Halt {
	return hs[max(0, len(hs)-5):]
}

// budgetJSON is budget status --json.
type budgetJSON struct {
	Session   string      `json:"session"`
	Spent     fuse.Sum    `json:"spent"`
	Subagents fuse.Sum    `json:"subagents"`
	Caps      []capJSON   `json:"caps"`
	Disarmed  bool        `json:"disarmed"`
	Loop      *fuse.Loop  `json:"loop,omitempty"`
	Halts     []fuse.Halt `json:"halts"`
	Tampered  []string    `json:"tampered"`
	Unpriced  []string    `json:"unpriced"`
	BurnUSD   float64     `json:"burn_usd_5m"`
}

type capJSON struct {
	Kind     string   `json:"kind"`
	Cap      string   `json:"cap"`
	Source   string   `json:"source"`
	Spent    fuse.Sum `json:"spent"`
	Share    float64  `json:"share"`
	Standing string   `json:"standing"`
}

func printBudgetJSON(w io.Writer, id string, st fuse.Status) {
	out := budgetJSON{Session: id, Spent: st.Total, Subagents: st.Subagents, Disarmed: st.Disarmed, Loop: st.Loop,
		Halts: st.Halts, Tampered: st.Tampered, Unpriced: st.Unpriced, BurnUSD: st.Burn, Caps: []capJSON{}}
	for _, c := range st.Caps {
		_, standing := capWords(c)
		out.Caps = append(out.Caps, capJSON{Kind: c.Kind, Cap: c.Cap.String(), Source: c.Source, Spent: c.Spent, Share: c.Share(), Standing: standing})
	}
	for _, l := range []*[]string{&out.Tampered, &out.Unpriced} {
		if *l == nil {
			*l = []string{}
		}
	}
	if out.Halts == nil {
		out.Halts = []fuse.Halt{}
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	writeJSON(w, data)
}

// findSession resolves the session the budget verbs act on: the flag,
// else the session this runs in, else the project's latest.
func findSession(root, id string) (fuse.Target, error) {
	tg := fuse.Target{Root: root, Getenv: os.Getenv, Now: time.Now()}
	if id == "" {
		id = os.Getenv("CLAUDE_CODE_SESSION_ID")
	}
	folder := transcriptDir(root)
	dir := fuse.Dir(os.Getenv, root)
	if id == "" {
		id = latestSession(folder, dir)
		if id == "" {
			return tg, errors.New("no session found for this project")
		}
	}
	if !state.PlainName(id) {
		return tg, fmt.Errorf("%q is not a session id", id)
	}
	tg.ID = id
	if t := fuse.Load(dir, id); t.Transcript != "" {
		tg.Transcript = t.Transcript
	} else if name := filepath.Join(folder, id+".jsonl"); fileExists(name) {
		tg.Transcript = name
	}
	return tg, nil
}

// latestSession is the newest transcript of the project's folder, else the
// newest session the fuse keeps a tally of.
func latestSession(folder, fuseDir string) string {
	for _, g := range []struct{ dir, suffix string }{{folder, ".jsonl"}, {fuseDir, fuse.SpendSuffix}} {
		if name, _ := newestFile(g.dir, g.suffix); name != "" {
			return strings.TrimSuffix(filepath.Base(name), g.suffix)
		}
	}
	return ""
}

func fileExists(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}
