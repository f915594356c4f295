package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

const budgetUsage = "usage: context-budget budget arm|status|reset|disarm [--session ID] [--project DIR] [AMOUNT]"

// runBudget is the spend fuse's CLI: arm a session cap from now, show the
// spend, set a new baseline, or drop the cap. Lifting is the user's act:
// the hook denies the agent these verbs (all but status) while a cap holds.
func runBudget(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	verb := "status"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		verb, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("budget", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("session", "", "the session (default: $CLAUDE_CODE_SESSION_ID, else the project's latest)")
	project := fs.String("project", "", "the project root (default: $CLAUDE_PROJECT_DIR, else the git work tree)")
	// Flags may come before or after the amount.
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		rest, args = append(rest, fs.Arg(0)), fs.Args()[1:]
	}
	switch verb {
	case "arm":
		if len(rest) > 1 {
			fmt.Fprintln(stderr, budgetUsage)
			return 2
		}
	case "status", "reset", "disarm":
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "context-budget: error: budget %s takes no amount\n%s\n", verb, budgetUsage)
			return 2
		}
	default:
		fmt.Fprintf(stderr, "context-budget: error: unknown budget verb %q\n%s\n", verb, budgetUsage)
		return 2
	}
	var cap tuning.Amount
	if verb == "arm" {
		amount := ""
		if len(rest) == 1 {
			amount = rest[0]
		}
		var err error
		cap, err = tuning.ParseAmount(amount)
		if errors.Is(err, tuning.ErrEmpty) {
			return fail(stderr, err, `a bare $5 in a shell expands to nothing: quote it ('$5') or write 5usd; tokens are 2m or 500k`)
		}
		if err != nil {
			return fail(stderr, err, "")
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
		fmt.Fprintf(stdout, "armed: session %s may spend %s from now\n", tg.ID, cap)
	case "reset":
		err := fuse.Reset(tg)
		if errors.Is(err, fuse.ErrNoCap) {
			return fail(stderr, err, "arm one with context-budget budget arm AMOUNT")
		}
		if err != nil {
			return fail(stderr, err, "")
		}
		fmt.Fprintf(stdout, "reset: session %s counts its cap from now\n", tg.ID)
	case "disarm":
		if err := fuse.Disarm(tg); err != nil {
			return fail(stderr, err, "")
		}
		fmt.Fprintf(stdout, "disarmed: session %s has no session cap (a daily cap from %s still holds)\n", tg.ID, tuning.EnvSpendDay)
	}
	st, err := fuse.ReadStatus(tg)
	if err != nil {
		return fail(stderr, err, "")
	}
	printBudget(stdout, tg.ID, st)
	return 0
}

// printBudget writes budget status.
func printBudget(w io.Writer, id string, st fuse.Status) {
	fmt.Fprintf(w, "session %s: spent $%.2f, %s tokens", id, st.Total.USD, tuning.FormatTokens(st.Total.Tokens))
	if st.Subagents.Responses > 0 {
		fmt.Fprintf(w, " (subagents $%.2f)", st.Subagents.USD)
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
		what := "session cap"
		if c.Kind == "day" {
			what = "project's cap today (UTC)"
		}
		state := "holds: every tool call is denied"
		switch share := c.Share(); {
		case share < 0.8:
			state = "under"
		case share < 1:
			state = "past the 80% warning"
		}
		fmt.Fprintf(w, "  %s %s (%s): spent %s, %.0f%%, %s\n", what, c.Cap, c.Source, c.SpentText(), 100*c.Share(), state)
		if c.Cap.USD > 0 && c.Spent.UnpricedTokens > 0 {
			fmt.Fprintf(w, "    %s tokens on unpriced models (%s) count nothing against this dollar cap\n",
				tuning.FormatTokens(c.Spent.UnpricedTokens), strings.Join(st.Unpriced, ", "))
		}
	}
	if st.Loop != nil {
		fmt.Fprintf(w, "  loop halt: %s ran %d times in a row; released at the run's stop or by budget reset\n", st.Loop.Call, st.Loop.Count)
	}
	if st.Tuning.BurnUSD > 0 {
		fmt.Fprintf(w, "  burn: $%.2f in the last 5 minutes (warns at $%.2f)\n", st.Burn, st.Tuning.BurnUSD)
	}
}

// findSession resolves the session the budget verbs act on: the flag,
// else the session this runs in, else the project's latest.
func findSession(root, id string) (fuse.Target, error) {
	tg := fuse.Target{Root: root, Getenv: os.Getenv, Now: time.Now()}
	if id == "" {
		id = os.Getenv("CLAUDE_CODE_SESSION_ID")
	}
	home, _ := os.UserHomeDir()
	folder := filepath.Join(settings.ConfigDir(os.Getenv, home), "projects", projectSlugOf(root))
	if id == "" {
		id = latestSession(folder, state.Dir(root))
		if id == "" {
			return tg, errors.New("no session found for this project")
		}
	}
	if !state.PlainName(id) {
		return tg, fmt.Errorf("%q is not a session id", id)
	}
	tg.ID = id
	if t := fuse.Load(fuse.TallyName(state.Dir(root), id)); t.Transcript != "" {
		tg.Transcript = t.Transcript
	} else if name := filepath.Join(folder, id+".jsonl"); fileExists(name) {
		tg.Transcript = name
	}
	return tg, nil
}

func projectSlugOf(root string) string {
	if n := os.Getenv("CLAUDE_CODE_PROJECT_DIR_NAME"); n != "" {
		return n
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return settings.ProjectSlug(root)
}

// latestSession is the newest transcript of the project's folder, else the
// newest session the fuse keeps a tally of.
func latestSession(folder, stateDir string) string {
	type aged struct {
		id  string
		mod time.Time
	}
	var list []aged
	for _, g := range []struct{ dir, suffix string }{{folder, ".jsonl"}, {stateDir, state.SpendSuffix}} {
		names, _ := filepath.Glob(filepath.Join(g.dir, "*"+g.suffix))
		for _, n := range names {
			if fi, err := os.Stat(n); err == nil && fi.Mode().IsRegular() {
				list = append(list, aged{strings.TrimSuffix(filepath.Base(n), g.suffix), fi.ModTime()})
			}
		}
		if len(list) > 0 {
			break
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].mod.After(list[j].mod) })
	if len(list) == 0 {
		return ""
	}
	return list[0].id
}

func fileExists(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}
