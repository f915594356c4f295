package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/chain"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/hook"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/operator"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/ledger"
)

// runLedger is `ledger` (list the rows) and `ledger record` (the Stop hook,
// or a backfill with --transcript).
func runLedger(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "record" {
		return runLedgerRecord(args[1:], stdin, stdout, stderr)
	}
	fs := newFlags("ledger", "context-budget ledger [--by operator|branch|week|chain] [--json] [--project DIR]\ncontext-budget ledger record                      (the Stop hook: the payload on stdin)\ncontext-budget ledger record --transcript FILE [--project DIR]")
	asJSON := fs.Bool("json", false, "print the rows as JSON")
	by := fs.String("by", "", "total the rows per `KEY`: operator (the author), branch, week (ISO, of the first response) or chain")
	project := fs.String("project", "", "the project `DIR` whose ledger to read (default: $CLAUDE_PROJECT_DIR, the git work tree, or the current directory)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "ledger", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	root := projectRoot(*project)
	rd, err := ledger.NewReader(ledger.Dir(root))
	if err != nil {
		return fail(stderr, err, "")
	}
	rows, _ := rd.ReadAll()
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].FirstResponseAt < rows[j].FirstResponseAt })
	if rd.Skipped > 0 {
		printf(stderr, "context-budget: skipped %d file(s) that are not rows, first: %v\n", rd.Skipped, rd.Errors[0])
	}
	if *by != "" {
		return printBy(stdout, stderr, rows, *by, *asJSON)
	}
	if *asJSON {
		if rows == nil {
			rows = []ledger.Row{}
		}
		data, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return fail(stderr, err, "")
		}
		writeJSON(stdout, data)
		return 0
	}
	printRows(stdout, rows)
	return 0
}

// printRows writes the rows as a table with a totals line, then a line
// per relay chain with its total.
func printRows(w io.Writer, rows []ledger.Row) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "no sessions in the ledger")
		return
	}
	handed := handedOver(rows)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "date\tbranch\topening prompt\tcost\tresponses\toriented at\torientation\trelayed\thanded over\tchain\tplace\tsession")
	var total ledger.Tally
	var relayed, handedN, measured int
	var orientUSD float64
	for _, r := range rows {
		date := r.FirstResponseAt
		if len(date) >= 10 {
			date = date[:10]
		}
		at, usd := "-", "-"
		if r.Orientation.Measured() {
			at = notice.K(r.Orientation.ContextTokens)
			usd = fmt.Sprintf("$%.2f", r.Orientation.Spend.CostUSD)
			measured++
			orientUSD += r.Orientation.Spend.CostUSD
		}
		rel, hand, place := "-", "-", "-"
		if r.Relayed() {
			rel = "yes"
			relayed++
		}
		if handed[r.SessionID] {
			hand = "yes"
			handedN++
		}
		if r.Place > 0 {
			place = fmt.Sprint(r.Place)
		}
		printf(tw, "%s\t%s\t%s\t$%.2f\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			orDash(date), orDash(r.Branch), orDash(clip(r.OpeningPrompt, 48)), r.Total.CostUSD, r.Total.Responses, at, usd, rel, hand,
			orDash(clip(r.Chain, 9)), place, orDash(r.SessionID))
		total = total.Add(r.Total)
	}
	mean := "-"
	if measured > 0 {
		mean = fmt.Sprintf("$%.2f mean", orientUSD/float64(measured))
	}
	printf(tw, "total\t%d sessions\t\t$%.2f\t%d\t\t%s\t%d\t%d\n", len(rows), total.CostUSD, total.Responses, mean, relayed, handedN)
	tw.Flush()
	for _, c := range chainTotals(rows) {
		printf(w, "chain %s: %d sessions, places %d to %d, $%.2f\n", c.id, c.sessions, c.first, c.last, c.usd)
	}
}

// handedOver tells, by session id, the rows of a relay chain whose
// session handed over: a relayed session (opened by /relay take) holds
// the next place of the same chain. A session outside any chain is told
// by nothing the ledger holds.
func handedOver(rows []ledger.Row) map[string]bool {
	type at struct {
		chain string
		place int
	}
	relayedAt := map[at]bool{}
	for _, r := range rows {
		if r.Chain != "" && r.Relayed() {
			relayedAt[at{r.Chain, r.Place}] = true
		}
	}
	out := map[string]bool{}
	for _, r := range rows {
		if r.Chain != "" && relayedAt[at{r.Chain, r.Place + 1}] {
			out[r.SessionID] = true
		}
	}
	return out
}

// chainTotal is one relay chain's sessions in the ledger.
type chainTotal struct {
	id                    string
	sessions, first, last int
	usd                   float64
}

// chainTotals totals the rows of each relay chain, in the order the
// chains first appear.
func chainTotals(rows []ledger.Row) []chainTotal {
	var out []chainTotal
	index := map[string]int{}
	for _, r := range rows {
		if r.Chain == "" {
			continue
		}
		i, ok := index[r.Chain]
		if !ok {
			i = len(out)
			index[r.Chain] = i
			out = append(out, chainTotal{id: r.Chain, first: r.Place, last: r.Place})
		}
		c := &out[i]
		c.sessions++
		c.usd += r.Total.CostUSD
		c.first, c.last = min(c.first, r.Place), max(c.last, r.Place)
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// clip cuts s to n characters, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// clipStart cuts s to its last n characters, marking the cut: a path's
// end tells it from its neighbours.
func clipStart(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// runLedgerRecord is the Stop hook: the payload on stdin names the session
// and its transcript; the row is priced and written. Like the PostToolUse
// hook it never fails loudly: exit 0, at most one line on stderr. With
// --transcript it backfills a past session and reports errors as a command.
func runLedgerRecord(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("ledger record", "context-budget ledger record                      (the Stop hook: the payload on stdin)\ncontext-budget ledger record --transcript FILE [--project DIR]")
	transcriptPath := fs.String("transcript", "", "backfill the row of this past session's transcript `FILE`")
	project := fs.String("project", "", "with --transcript: the project `DIR` whose ledger gets the row (default: the session's own, from its transcript)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "ledger record", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if *project != "" && *transcriptPath == "" {
		return usageError(stderr, "ledger record", fmt.Errorf("--project goes with --transcript"))
	}
	if *transcriptPath != "" {
		// Without --project the row goes to the session's own project,
		// the folder its transcript says it ran in.
		name, err := recordRow(*project, *transcriptPath, "", os.Getenv, stderr, nil)
		if errors.Is(err, errNoRoot) {
			return fail(stderr, err, "give --project DIR, the project whose ledger gets the row")
		}
		if err != nil {
			return fail(stderr, err, "")
		}
		printf(stdout, "%s\n", name)
		return 0
	}
	// Streamed like the PostToolUse payload: a huge field is skipped
	// through a small window, never held.
	p, err := reading.ReadPayload(io.LimitReader(stdin, maxPayload))
	if err != nil || p.Subagent || !state.PlainName(p.SessionID) || p.TranscriptPath == "" {
		return 0
	}
	root := hook.SessionRoot(os.Getenv, p.Cwd)
	if root == "" {
		return 0
	}
	waitForFinal(p.TranscriptPath, p.LastAssistantMessage)
	// A session of a relay chain names the chain and its place in its
	// row; the runner gave them to it (and so to its hooks).
	var mark func(*ledger.Row)
	if id, place, ok := chain.FromEnv(os.Getenv); ok {
		mark = func(r *ledger.Row) { r.Chain, r.Place = id, place }
	}
	// A link the program did not make where the row goes (a clone's
	// committed .claude) is refused in silence, as a hook refuses.
	if _, err := recordRow(root, p.TranscriptPath, p.SessionID, os.Getenv, stderr, mark); err != nil && !errors.Is(err, os.ErrNotExist) &&
		!errors.Is(err, errNoResponses) && !errors.Is(err, atomicfile.ErrLink) {
		printf(stderr, "context-budget: ledger record: %v\n", err)
	}
	// The row first, then the team's collector, under its deadline.
	exportStop(root, p.SessionID, p.TranscriptPath)
	// Once a turn, off the hook's path: the temporary files of state
	// writes killed partway (a hook past its deadline) are cleaned.
	state.Clean(state.Dir(root))
	return 0
}

// errNoRoot reports a backfill whose session's folder is not on this
// machine, and no --project to put the row in instead.
var errNoRoot = errors.New("the session's project folder is not here")

// errNoResponses reports a transcript with nothing to price yet: the Stop
// hook says nothing about it, a backfill does.
var errNoResponses = errors.New("no responses to price")

// recordRow prices a session and writes its row under root (when "", the
// session's own working folder, which must exist). session, when set, is
// the row's id (the hook's payload); else the transcript's own, or its
// file name. mark, when set, adds to the row what only the Stop hook
// knows (the relay chain the session runs in); a backfill passes nil.
func recordRow(root, transcriptPath, session string, getenv func(string) string, stderr io.Writer, mark func(*ledger.Row)) (string, error) {
	s, err := orientation.Read(transcriptPath)
	if err != nil {
		return "", err
	}
	if session != "" {
		s.ID = session
	}
	if s.ID == "" {
		s.ID = strings.TrimSuffix(filepath.Base(transcriptPath), ".jsonl")
	}
	if len(s.Responses) == 0 {
		return "", fmt.Errorf("%s: %w", transcriptPath, errNoResponses)
	}
	if root == "" {
		if fi, err := os.Stat(s.Cwd); s.Cwd == "" || err != nil || !fi.IsDir() {
			return "", fmt.Errorf("%s ran in %q: %w", transcriptPath, s.Cwd, errNoRoot)
		}
		root = s.Cwd
	}
	// A refused override costs the override, never the row: one line on
	// stderr, the row priced with the built-in table and saying so.
	tab, _, err := priceTable(root, getenv, true)
	warning := ""
	if err != nil {
		warning = fmt.Sprintf("price overrides not applied: %v", err)
		printf(stderr, "context-budget: %s; using the built-in prices\n", warning)
	}
	row := orientation.Row(s, orientation.NewPricer(tab), operatorOf(root, s.ID), orientation.Options{Finished: true})
	// The session's pace, which the project's later forecasts average
	// (forecast.Fit.Refine): a pass of the history, as the hook makes.
	var h forecast.History
	if h.Update(transcriptPath) == nil && h.Last != nil {
		row.Pace = h.Pace.Row(h.Last.Model)
	}
	if warning != "" {
		row.Warnings = append(row.Warnings, rowWords(warning, root, getenv))
	}
	row.Halts = fuse.Halts(fuse.Dir(getenv, root), s.ID)
	teamFields(&row, root)
	if mark != nil {
		mark(&row)
	}
	return ledger.Write(root, &row)
}

// operatorOf is the GitHub login the hook resolved for the session, if it
// recorded one (operator.Operator's record); the ledger never asks the
// network itself, so a session that never fired a notice has no operator.
func operatorOf(root, session string) string {
	if !state.PlainName(session) {
		return ""
	}
	data, err := reading.ReadFile(filepath.Join(state.Dir(root), session+state.OperatorSuffix), reading.MaxSideFile)
	if err != nil {
		return ""
	}
	login := strings.TrimSpace(string(data))
	if !operator.PlainLogin(login) {
		return ""
	}
	return login
}

// Claude Code writes the transcript asynchronously: the Stop hook can start
// before the turn's final response is on disk, so it waits, bounded, until
// the transcript shows the response text the payload carries.
const (
	stopWait     = time.Second
	stopWaitPoll = 10 * time.Millisecond
)

// waitForFinal waits until the transcript's last main-chain response with
// a text block says text, or stopWait has passed; it reports whether the
// text was seen. An empty text is not waited for.
func waitForFinal(path, text string) bool {
	want := strings.Join(strings.Fields(text), " ")
	if want == "" {
		return true
	}
	deadline := time.Now().Add(stopWait)
	for {
		// The final response's text blocks may sit on several records, the
		// last record holding the last block: so the last text seen is the
		// message, holds it, or ends it. Merely appearing inside it would
		// let an earlier, shorter response end the wait too soon.
		if got, ok := lastText(path); ok && got != "" && (strings.Contains(got, want) || strings.HasSuffix(want, got)) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(stopWaitPoll)
	}
}

// lastText returns the text of the transcript's last main-chain response
// record that holds a text block, whitespace collapsed.
func lastText(path string) (string, bool) {
	f, fi, err := reading.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var text string
	found := false
	reading.ScanBack(f, fi.Size(), func(line []byte) bool {
		transcript.Decode(line, func(r *transcript.Record) {
			if found || !r.IsResponse() {
				return
			}
			var parts []string
			for _, b := range transcript.Blocks(r.Message.Content) {
				if b.Type == "text" {
					parts = append(parts, b.Text)
				}
			}
			if len(parts) > 0 {
				text, found = strings.Join(strings.Fields(strings.Join(parts, " ")), " "), true
			}
		})
		return !found
	})
	return text, found
}
