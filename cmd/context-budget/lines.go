package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/history"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/policy"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/window"
)

// linesReport is what `lines --json` prints. The first fields are the
// contract of design §10 and issue 3; window and warnings come after.
type linesReport struct {
	Reading         int64      `json:"reading"`
	Model           string     `json:"model"`
	Priced          bool       `json:"priced"`
	Warn            lineReport `json:"warn"`
	Pause           lineReport `json:"pause"`
	SavingUSD       *float64   `json:"saving_usd"`
	RelayUpfrontUSD *float64   `json:"relay_upfront_usd"`
	CarryOnUSD      *float64   `json:"carry_on_usd"`
	// CarryOnBand is the spread of real sessions around CarryOnUSD.
	CarryOnBand      *carryOnBand    `json:"carry_on_band,omitempty"`
	Reorientation    *reorientation  `json:"reorientation"`
	RequestsPerToken *float64        `json:"requests_per_token"`
	TTL              *string         `json:"ttl"`
	Forecast         *forecastReport `json:"forecast,omitempty"`
	PricesAsOf       string          `json:"prices_as_of"`
	Window           window.Window   `json:"window"`
	Warnings         []string        `json:"warnings,omitempty"`
}

// forecastReport says how the next 100k tokens were forecast: the rate
// setting, and the rewrite share and output per request it priced.
type forecastReport struct {
	Rate          string  `json:"rate"`
	Requests      float64 `json:"requests"`
	RewriteRatio  float64 `json:"rewrite_ratio"`
	OutPerRequest float64 `json:"out_per_request"`
	// PaceFrom names the prior the pace was shrunk towards.
	PaceFrom string `json:"pace_from,omitempty"`
}

// carryOnBand says that a share of real sessions forecast at the
// carrying-on figure cost between LowUSD and HighUSD.
type carryOnBand struct {
	Share   float64 `json:"share"`
	LowUSD  float64 `json:"low_usd"`
	HighUSD float64 `json:"high_usd"`
}

type lineReport struct {
	Tokens *int64      `json:"tokens"`
	SetBy  lines.SetBy `json:"set_by"`
	// SavingUSD is the dollar threshold of a priced line.
	SavingUSD float64 `json:"saving_usd,omitempty"`
}

type reorientation struct {
	Tokens  int64   `json:"tokens"`
	CostUSD float64 `json:"cost_usd"`
	Source  string  `json:"source"`
	// Words names the source as the notice does.
	Words string `json:"words"`
}

// runLines is `context-budget lines`: the reading, both lines and what set
// them, and the relay's figures, for a transcript or a hook payload.
func runLines(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lines", flag.ContinueOnError)
	fs.SetOutput(stderr)
	transcriptFlag := fs.String("transcript", "", "the session's transcript (.jsonl)")
	projectFlag := fs.String("project", "", "the project root (default: $CLAUDE_PROJECT_DIR, the git work tree, or the current directory)")
	jsonFlag := fs.Bool("json", false, "print one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: context-budget lines [--json] [--transcript FILE] [--project DIR] [< payload.json]")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	s, err := config.FromEnv(os.Getenv)
	if err != nil {
		return fail(stderr, err, "fix or unset the variable; see 'context-budget help'")
	}
	path, root, session := *transcriptFlag, *projectFlag, ""
	if path == "" {
		data, _ := io.ReadAll(io.LimitReader(stdin, maxPayload))
		if len(bytes.TrimSpace(data)) == 0 {
			fmt.Fprintln(stderr, "context-budget: error: no transcript: give --transcript FILE or a hook payload on stdin")
			return 2
		}
		// Something came on stdin: bad input, not a usage error.
		p, err := reading.ParsePayload(data)
		if err != nil || p.TranscriptPath == "" {
			return fail(stderr, errors.New("stdin is not a hook payload naming a transcript_path"), "give --transcript FILE, or pipe the hook's JSON payload")
		}
		path, session = p.TranscriptPath, p.SessionID
		if root == "" {
			root = os.Getenv("CLAUDE_PROJECT_DIR")
		}
		if root == "" {
			root = p.Cwd
		}
	} else {
		session = strings.TrimSuffix(filepath.Base(path), ".jsonl")
	}
	root = projectRoot(root)
	rep, err := linesFor(s, path, root, session)
	if err != nil {
		return fail(stderr, err, "")
	}
	if *jsonFlag {
		out, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	printLines(stdout, rep)
	return 0
}

// linesFor applies the hook's policy to one transcript.
func linesFor(s config.Settings, path, root, session string) (*linesReport, error) {
	r, err := reading.Read(path, reading.Options{})
	if err != nil {
		if errors.Is(err, reading.ErrNoReading) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return nil, err
	}
	in := policy.Input{Settings: s, Reading: r.Tokens, RequestedModel: r.RequestedModel,
		Root: root, TranscriptPath: path, Getenv: os.Getenv}
	if state.PlainName(session) {
		in.StatuslineWindow = window.ReadFile(window.FileName(state.Dir(root), session))
	}
	asOf := prices.EmbeddedAsOf()
	if !s.Fixed {
		table, err := prices.Load(prices.OverrideFiles(root, os.Getenv))
		if err != nil {
			return nil, fmt.Errorf("price table: %w", err)
		}
		var h history.History
		if err := h.Update(path); err != nil {
			return nil, err
		}
		keepClimbPrior(&h, root, session, path)
		in.Table, in.History, asOf = table, &h, table.AsOf
	}
	d := policy.Decide(in)
	rep := &linesReport{Reading: r.Tokens, Model: r.Model, Priced: d.Priced,
		Warn: lineOf(d.Lines.Warn), Pause: lineOf(d.Lines.Pause),
		PricesAsOf: asOf, Window: d.Window}
	if d.Priced {
		m := d.At(r.Tokens)
		rep.SavingUSD = dollars(m.Saving(r.Tokens))
		rep.RelayUpfrontUSD = dollars(m.RelayUpfront(r.Tokens))
		rep.CarryOnUSD = dollars(m.CarryOn(r.Tokens))
		ro := d.Reorientation
		rep.Reorientation = &reorientation{Tokens: ro.Tokens, CostUSD: *dollars(ro.CostUSD), Source: ro.Source, Words: ro.Words}
		q := roundSig(d.Cost.Q)
		rep.RequestsPerToken, rep.TTL = &q, &d.TTL
		rep.Forecast = &forecastReport{Rate: s.Rate, Requests: roundSig(m.N()),
			RewriteRatio: roundSig(m.Rewrite), OutPerRequest: math.Round(m.OutPerRequest), PaceFrom: d.PaceFrom}
		if mo := d.Money(r.Tokens); mo.Share > 0 {
			rep.CarryOnBand = &carryOnBand{Share: mo.Share, LowUSD: *dollars(mo.CarryOnLowUSD), HighUSD: *dollars(mo.CarryOnHighUSD)}
		}
	}
	if w, p := d.Lines.Warn, d.Lines.Pause; w.Tokens >= p.Tokens {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the warn line (%s tokens, set by %s) lies at or past the pause line (%s tokens, set by %s): only the pause will fire",
			thousands(w.Tokens), w.SetBy, thousands(p.Tokens), p.SetBy))
	}
	for _, name := range d.PastCompaction() {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the %s line fixed by MUTHUR_CONTEXT_BUDGET_%s lies at or past the compaction point (%s tokens): Claude Code will compact before it fires",
			name, strings.ToUpper(name), thousands(d.Window.CompactsAt)))
	}
	return rep, nil
}

func lineOf(l lines.Line) lineReport {
	t := l.Tokens
	return lineReport{Tokens: &t, SetBy: l.SetBy, SavingUSD: l.SavingUSD}
}

// dollars rounds to a millionth of a dollar, so that the JSON shows 0.9825
// rather than floating point's 0.9824999999999999.
func dollars(v float64) *float64 {
	r := math.Round(v*1e6) / 1e6
	return &r
}

// roundSig rounds to six significant digits.
func roundSig(v float64) float64 {
	if v == 0 {
		return 0
	}
	scale := math.Pow(10, 6-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}

// thousands writes 169872 as "169,872".
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func printLines(w io.Writer, rep *linesReport) {
	line := func(name string, l lineReport) {
		fmt.Fprintf(w, "%-14s %s tokens, set by %s", name, thousands(*l.Tokens), l.SetBy)
		if l.SetBy == lines.Priced {
			fmt.Fprintf(w, " (relaying there saves %s over the next 100k tokens)", notice.USD(l.SavingUSD))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%-14s %s tokens (%s)\n", "reading", thousands(rep.Reading), rep.Model)
	line("warn line", rep.Warn)
	line("pause line", rep.Pause)
	fmt.Fprintf(w, "%-14s %s tokens (from %s); Claude Code compacts at %s\n", "window",
		thousands(rep.Window.Tokens), rep.Window.Source, thousands(rep.Window.CompactsAt))
	if rep.Priced {
		verb, saving := "saves", *rep.SavingUSD
		if saving < 0 {
			verb, saving = "costs", -saving
		}
		carry := notice.USD(*rep.CarryOnUSD)
		if b := rep.CarryOnBand; b != nil {
			carry += fmt.Sprintf(" (%d in 10 sessions %s–%s)", int(math.Round(b.Share*10)), notice.USD(b.LowUSD), notice.USD(b.HighUSD))
		}
		fmt.Fprintf(w, "%-14s %s up front; %s %s over the next 100k tokens against carrying on at %s\n", "relaying now",
			notice.USD(*rep.RelayUpfrontUSD), verb, notice.USD(saving), carry)
		ro := rep.Reorientation
		fmt.Fprintf(w, "%-14s %s tokens, %s (source: %s: %s)\n", "reorientation", thousands(ro.Tokens), notice.USD(ro.CostUSD), ro.Source, ro.Words)
		fmt.Fprintf(w, "%-14s %g requests per token\n", "q", *rep.RequestsPerToken)
		fmt.Fprintf(w, "%-14s %s\n", "cache ttl", *rep.TTL)
		if f := rep.Forecast; f != nil {
			fmt.Fprintf(w, "%-14s %s: %.0f requests in the next 100k tokens, %.1f%% of the context re-written a request, %.0f output tokens a request\n",
				"forecast", f.Rate, f.Requests, 100*f.RewriteRatio, f.OutPerRequest)
			if f.PaceFrom != "" {
				fmt.Fprintf(w, "%-14s %s\n", "pace from", f.PaceFrom)
			}
		}
	} else {
		fmt.Fprintf(w, "%-14s no (the lines are the caps and the window's)\n", "priced")
	}
	fmt.Fprintf(w, "%-14s %s\n", "prices as of", rep.PricesAsOf)
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
}
