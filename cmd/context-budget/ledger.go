package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/muthur/context-budget/internal/history"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/muthur/context-budget/internal/manualrelay"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// runLedger is `ledger` (list the rows) and `ledger record` (the Stop hook,
// or a backfill with --transcript).
func runLedger(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "record" {
		return runLedgerRecord(args[1:], stdin, stdout, stderr)
	}
	fs := flag.NewFlagSet("ledger", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the rows as JSON")
	project := fs.String("project", "", "the project whose ledger to read (default: $CLAUDE_PROJECT_DIR, else the current directory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "context-budget: error: unexpected argument %q\ncontext-budget: hint: usage: context-budget ledger [--json] [--project DIR] | ledger record [--transcript FILE [--project DIR]]\n", fs.Arg(0))
		return 2
	}
	root := projectRoot(*project)
	rd, err := ledger.NewReader(ledger.Dir(root))
	if err != nil {
		return fail(stderr, err, "")
	}
	rows, _ := rd.ReadAll()
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].FirstResponseAt < rows[j].FirstResponseAt })
	if rd.Skipped > 0 {
		fmt.Fprintf(stderr, "context-budget: skipped %d file(s) that are not rows, first: %v\n", rd.Skipped, rd.Errors[0])
	}
	if *asJSON {
		if rows == nil {
			rows = []ledger.Row{}
		}
		data, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return fail(stderr, err, "")
		}
		stdout.Write(append(data, '\n'))
		return 0
	}
	printRows(stdout, rows)
	return 0
}

// printRows writes the rows as a table with a totals line.
func printRows(w io.Writer, rows []ledger.Row) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "no sessions in the ledger")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "date\tbranch\topening prompt\tcost\tresponses\toriented at\torientation\trelayed")
	var total ledger.Tally
	var relayed, measured int
	var orientUSD float64
	for _, r := range rows {
		date := r.FirstResponseAt
		if len(date) >= 10 {
			date = date[:10]
		}
		at, usd := "-", "-"
		if r.Orientation.Measured() {
			at = fmt.Sprintf("%dk", (r.Orientation.ContextTokens+500)/1000)
			usd = fmt.Sprintf("$%.2f", r.Orientation.Spend.CostUSD)
			measured++
			orientUSD += r.Orientation.Spend.CostUSD
		}
		rel := ""
		if r.Relayed() {
			rel = "yes"
			relayed++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t$%.2f\t%d\t%s\t%s\t%s\n",
			orDash(date), orDash(r.Branch), orDash(clip(r.OpeningPrompt, 48)), r.Total.CostUSD, r.Total.Responses, at, usd, rel)
		total = total.Add(r.Total)
	}
	mean := "-"
	if measured > 0 {
		mean = fmt.Sprintf("$%.2f mean", orientUSD/float64(measured))
	}
	fmt.Fprintf(tw, "total\t%d sessions\t\t$%.2f\t%d\t\t%s\t%d\n", len(rows), total.CostUSD, total.Responses, mean, relayed)
	tw.Flush()
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

// runLedgerRecord is the Stop hook: the payload on stdin names the session
// and its transcript; the row is priced and written. Like the PostToolUse
// hook it never fails loudly: exit 0, at most one line on stderr. With
// --transcript it backfills a past session and reports errors as a command.
func runLedgerRecord(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ledger record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	transcriptPath := fs.String("transcript", "", "backfill the row of this past session's transcript")
	project := fs.String("project", "", "with --transcript: the project whose ledger gets the row (default: the current directory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || (*project != "" && *transcriptPath == "") {
		fmt.Fprintln(stderr, "context-budget: error: usage: context-budget ledger record [--transcript FILE [--project DIR]]")
		return 2
	}
	if *transcriptPath != "" {
		root := *project
		if root == "" {
			root, _ = os.Getwd()
		}
		name, err := recordRow(root, *transcriptPath, "", os.Getenv)
		if err != nil {
			return fail(stderr, err, "")
		}
		fmt.Fprintln(stdout, name)
		return 0
	}
	data, err := io.ReadAll(io.LimitReader(stdin, maxPayload))
	if err != nil {
		return 0
	}
	p, err := reading.ParsePayload(data)
	if err != nil || p.AgentID != "" || !state.PlainName(p.SessionID) || p.TranscriptPath == "" {
		return 0
	}
	root := os.Getenv("CLAUDE_PROJECT_DIR")
	if root == "" {
		root = p.Cwd
	}
	if root == "" {
		return 0
	}
	waitForFinal(p.TranscriptPath, p.LastAssistantMessage)
	if _, err := recordRow(root, p.TranscriptPath, p.SessionID, os.Getenv); err != nil && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, errNoResponses) {
		fmt.Fprintf(stderr, "context-budget: ledger record: %v\n", err)
	}
	return 0
}

// errNoResponses reports a transcript with nothing to price yet: the Stop
// hook says nothing about it, a backfill does.
var errNoResponses = errors.New("no responses to price")

// recordRow prices a session and writes its row under root. session, when
// set, is the row's id (the hook's payload); else the transcript's own, or
// its file name.
func recordRow(root, transcriptPath, session string, getenv func(string) string) (string, error) {
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
	tab, err := prices.Load(prices.OverrideFiles(root, getenv))
	warning := ""
	if err != nil {
		warning = fmt.Sprintf("price overrides not applied: %v", err)
		if tab, err = prices.Embedded(); err != nil {
			return "", err
		}
	}
	row := orientation.Row(s, orientation.NewPricer(tab), operatorOf(root, s.ID), orientation.Options{Finished: true})
	// The session's pace, which the project's later forecasts average
	// (forecast.Fit.Refine): a pass of the history, as the hook makes.
	var h history.History
	if h.Update(transcriptPath) == nil && h.Last != nil {
		row.Pace = h.Pace.Row(h.Last.Model)
	}
	if warning != "" {
		row.Warnings = append(row.Warnings, warning)
	}
	return ledger.Write(root, &row)
}

// operatorOf is the GitHub login the hook resolved for the session, if it
// recorded one (manualrelay.Operator's record); the ledger never asks the
// network itself, so a session that never fired a notice has no operator.
func operatorOf(root, session string) string {
	if !state.PlainName(session) {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(state.Dir(root), session+".operator"))
	if err != nil {
		return ""
	}
	login := strings.TrimSpace(string(data))
	if !manualrelay.PlainLogin(login) {
		return ""
	}
	return login
}
