package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/hook"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
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
	// CompactUSD is what letting Claude Code compact at the window's point
	// costs over the next 100k tokens: null where the point lies past
	// them (carrying on is then the same). Verdict is what a notice would
	// say if it fired now (design §4.2): its choice, the real alternative
	// and relaying's net saving against it.
	CompactUSD *float64       `json:"compact_usd"`
	Verdict    *lines.Verdict `json:"verdict,omitempty"`
	// CarryOnBand is the spread of real sessions around CarryOnUSD.
	CarryOnBand      *carryOnBand         `json:"carry_on_band,omitempty"`
	Reorientation    *lines.Reorientation `json:"reorientation"`
	RequestsPerToken *float64             `json:"requests_per_token"`
	TTL              *string              `json:"ttl"`
	Forecast         *forecastReport      `json:"forecast,omitempty"`
	PricesAsOf       string               `json:"prices_as_of"`
	Window           window.Window        `json:"window"`
	Cold             *coldReport          `json:"cold,omitempty"`
	Warnings         []string             `json:"warnings,omitempty"`
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

// runLines is `context-budget lines`: the reading, both lines and what set
// them, and the relay's figures, for a transcript or a hook payload.
func runLines(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("lines", "context-budget lines [--json] [--no-settings] [--transcript FILE] [--project DIR]\ncontext-budget lines [--json] < payload.json")
	transcriptFlag := fs.String("transcript", "", "the session's transcript, `FILE` (.jsonl; default: the newest of this project)")
	projectFlag := fs.String("project", "", "the project root, `DIR` (default: $CLAUDE_PROJECT_DIR, the git work tree, or the current directory)")
	jsonFlag := fs.Bool("json", false, "print one JSON object")
	noSettings := fs.Bool("no-settings", false, "ignore the env blocks of the Claude Code settings files (user, project, local)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "lines", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	path, root, session := *transcriptFlag, *projectFlag, ""
	if root != "" {
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			return fail(stderr, fmt.Errorf("--project %s: no such folder", root), "name the project's root folder")
		}
	}
	var data []byte
	if path == "" && !isTerminal(stdin) {
		data, _ = io.ReadAll(io.LimitReader(stdin, maxPayload))
	}
	if path == "" && len(bytes.TrimSpace(data)) == 0 {
		// Neither a transcript nor a payload: the newest session of the
		// project here, as Claude Code files it.
		root = projectRoot(root)
		newest, dir, err := newestTranscript(root)
		if err != nil {
			return fail(stderr, err, "")
		}
		if newest == "" {
			return fail(stderr, fmt.Errorf("no session of %s yet: looked for its transcripts in %s, Claude Code's folder for it", root, dir),
				"point it at a transcript with --transcript FILE (Claude Code keeps them under ~/.claude/projects/), or at another project with --project DIR")
		}
		path = newest
		session = strings.TrimSuffix(filepath.Base(path), ".jsonl")
	} else if path == "" {
		// Something came on stdin: bad input, not a usage error.
		p, err := reading.ReadPayload(bytes.NewReader(data))
		if err != nil || p.TranscriptPath == "" {
			return fail(stderr, errors.New("stdin is not a hook payload naming a transcript_path"), "give --transcript FILE, or pipe the hook's JSON payload")
		}
		path, session = p.TranscriptPath, p.SessionID
		if root == "" {
			root = hook.SessionRoot(os.Getenv, p.Cwd)
		}
	} else if session == "" {
		session = strings.TrimSuffix(filepath.Base(path), ".jsonl")
	}
	root = projectRoot(root)
	// lines keeps the ledger's mean in the project's state folder: a
	// project that is not there (a stale $CLAUDE_PROJECT_DIR, a payload's
	// cwd from another machine) is an error, not a tree to make.
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return fail(stderr, fmt.Errorf("the project root %s is not a folder", root), "give --project DIR")
	}
	// The hook sees the settings files' env blocks as variables: Claude
	// Code applies them to its hooks.
	getenv := os.Getenv
	if !*noSettings {
		home, _ := os.UserHomeDir()
		getenv, _ = settings.Env(os.Getenv, settings.ConfigDir(os.Getenv, home), root)
	}
	s, err := tuning.FromEnv(getenv)
	if err != nil {
		return fail(stderr, err, "fix or unset the variable (in the environment or a settings file's env); see 'context-budget help'")
	}
	rep, err := linesForEnv(s, path, root, session, getenv)
	if err != nil {
		return fail(stderr, err, "")
	}
	if *jsonFlag {
		out, _ := json.MarshalIndent(rep, "", "  ")
		writeJSON(stdout, out)
		return 0
	}
	printLines(stdout, rep)
	return 0
}

// linesForEnv applies the hook's policy to one transcript, with the
// environment getenv. Where the hook's
// line cache for the session still answers for this reading, its
// decision is the one shown: the lines the hook is applying.
func linesForEnv(s tuning.Settings, path, root, session string, getenv func(string) string) (*linesReport, error) {
	r, err := reading.Read(path, reading.Options{})
	if err != nil {
		if errors.Is(err, reading.ErrNoReading) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return nil, err
	}
	asOf := prices.EmbeddedAsOf()
	var table *prices.Table
	var priceWarnings []string
	if !s.Fixed {
		if table, priceWarnings, err = priceTable(root, getenv, true); err != nil {
			return nil, fmt.Errorf("price table: %w", err)
		}
		asOf = table.AsOf
	}
	in, err := transcriptInput(s, r, table, path, root, session, getenv)
	if err != nil {
		return nil, err
	}
	d := lines.Decide(in)
	if c, ok := cachedDecision(s, path, root, session, getenv, r); ok {
		d = c
	}
	rep := &linesReport{Reading: r.Tokens, Model: r.Model, Priced: d.Priced,
		Warn: lineOf(d.Lines.Warn), Pause: lineOf(d.Lines.Pause),
		PricesAsOf: asOf, Window: d.Window}
	if d.Priced {
		m := d.At(r.Tokens)
		rep.SavingUSD = dollars(m.Saving(r.Tokens))
		rep.RelayUpfrontUSD = dollars(m.RelayUpfront(r.Tokens))
		rep.CarryOnUSD = dollars(m.CarryOn(r.Tokens))
		ro := d.Reorientation
		ro.CostUSD = *dollars(ro.CostUSD)
		rep.Reorientation = &ro
		q := roundSig(d.Cost.Q)
		rep.RequestsPerToken, rep.TTL = &q, &d.TTL
		rep.Forecast = &forecastReport{Rate: s.Rate, Requests: roundSig(m.N()),
			RewriteRatio: roundSig(m.Rewrite), OutPerRequest: math.Round(m.OutPerRequest), PaceFrom: d.PaceFrom}
		mo := d.Money(r.Tokens)
		if mo.Share > 0 {
			rep.CarryOnBand = &carryOnBand{Share: mo.Share, LowUSD: *dollars(mo.CarryOnLowUSD), HighUSD: *dollars(mo.CarryOnHighUSD)}
		}
		if mo.Compacts {
			rep.CompactUSD = dollars(mo.CompactUSD)
		}
		v := mo.Verdict
		v.NetUSD = *dollars(v.NetUSD)
		rep.Verdict = &v
	}
	if w, p := d.Lines.Warn, d.Lines.Pause; w.Tokens >= p.Tokens {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the warn line (%s tokens, %s) lies at or past the pause line (%s tokens, %s): only the pause will fire",
			notice.Thousands(w.Tokens), setWords(w.SetBy), notice.Thousands(p.Tokens), setWords(p.SetBy)))
	}
	for _, name := range d.PastCompaction() {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the %s line fixed by MUTHUR_CONTEXT_BUDGET_%s lies at or past the compaction point (%s tokens): Claude Code will compact before it fires",
			name, strings.ToUpper(name), notice.Thousands(d.Window.CompactsAt)))
	}
	rep.Warnings = append(rep.Warnings, priceWarnings...)
	if cs, err := tuning.ColdFromEnv(os.Getenv); err == nil && cs.Mode != tuning.ColdOff {
		coldLines(rep, path, &d, in.History, r, cs.SavingUSD)
	}
	return rep, nil
}

// transcriptInput is the policy's input for the transcript at path at
// its reading r, as the hook's recompute would make it but from a fresh
// pass (lines.Call.FreshInput), with the compaction point's sources
// found as the recompute finds them. It writes nothing. `lines`, doctor
// and run decide through it.
func transcriptInput(s tuning.Settings, r reading.Reading, table *prices.Table, path, root, session string, getenv func(string) string) (lines.Input, error) {
	call := &lines.Call{Dir: state.Dir(root), ID: session, Root: root, Transcript: path, Settings: s, Getenv: getenv,
		Reading: r.Tokens, RequestedModel: r.RequestedModel, Model: r.Model, Version: r.Version, Table: table}
	call.Sources, _ = findSources(getenv, root, path, session, r.Version, r.Model, r.Time, false)
	return call.FreshInput()
}

// cachedDecision is the hook's cached decision for the session when it
// still answers for this reading: the hook would apply
// it at its next call.
func cachedDecision(s tuning.Settings, path, root, session string, getenv func(string) string, r reading.Reading) (lines.Decision, bool) {
	if !state.PlainName(session) {
		return lines.Decision{}, false
	}
	ls := &lines.Call{Dir: state.Dir(root), ID: session, Root: root, Transcript: path,
		Settings: s, Getenv: getenv, Reading: r.Tokens, RequestedModel: r.RequestedModel, Version: r.Version}
	e, ok := lines.Load(ls.Dir, session)
	if !ok || !e.Holds(ls) {
		return lines.Decision{}, false
	}
	return e.Decision, true
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

// standing says in a few words where the session stands against its
// lines: "below the warn line, 38k to go", "past the warn line, 12k over;
// the pause line is 18k on", "past the pause line, 2k over".
func standing(rep *linesReport) string {
	r, w, p := rep.Reading, *rep.Warn.Tokens, *rep.Pause.Tokens
	switch {
	case r >= p && rep.Verdict != nil && rep.Verdict.Choice == lines.ChoiceCompact:
		return fmt.Sprintf("past the pause line, %s over: go on to a clean point before Claude Code compacts at %s", notice.K(r-p), notice.K(rep.Window.CompactsAt))
	case r >= p && rep.Verdict != nil && rep.Verdict.Choice == lines.ChoiceCarryOn:
		return fmt.Sprintf("past the pause line, %s over: go on, carrying on is cheaper", notice.K(r-p))
	case r >= p:
		return fmt.Sprintf("past the pause line, %s over: time to stop and relay", notice.K(r-p))
	case r >= w:
		return fmt.Sprintf("past the warn line, %s over; the pause line is %s on", notice.K(r-w), notice.K(p-r))
	}
	return fmt.Sprintf("below the warn line, %s to go", notice.K(min(w, p)-r))
}

// setWords names what set a line in a few words.
func setWords(s lines.SetBy) string {
	words := map[lines.SetBy]string{lines.Priced: "priced", lines.Env: "fixed in the environment", lines.Window: "the window's"}
	return cmp.Or(words[s], "the cap")
}

// lineWhy says in plain words what put a line where it is.
func lineWhy(name string, l lineReport, win window.Window) string {
	switch l.SetBy {
	case lines.Priced:
		return fmt.Sprintf("where relaying saves %s over the next 100k tokens against the real alternative", notice.USD(l.SavingUSD))
	case lines.Env:
		return "fixed by MUTHUR_CONTEXT_BUDGET_" + strings.ToUpper(name)
	case lines.Window:
		return "kept clear of Claude Code's compaction at " + notice.K(win.CompactsAt)
	}
	return "the most it may be"
}

// windowSource says where the window's size came from.
func windowSource(s string) string {
	words := map[string]string{window.Env: "MUTHUR_CONTEXT_BUDGET_WINDOW", window.Transcript: "the transcript's model",
		window.Observed: "a reading past 200k", window.Statusline: "the status line"}
	return cmp.Or(words[s], "the default")
}

// savesOr is "saves" and v, or for a negative v the verb costs and -v.
func savesOr(costs string, v float64) (string, float64) {
	if v < 0 {
		return costs, -v
	}
	return "saves", v
}

func printLines(w io.Writer, rep *linesReport) {
	printf(w, "%s\n\n", standing(rep))
	line := func(name string, l lineReport) {
		printf(w, "%-14s %s tokens, %s\n", name+" line", notice.Thousands(*l.Tokens), lineWhy(name, l, rep.Window))
	}
	printf(w, "%-14s %s tokens of context (%s)\n", "reading", notice.Thousands(rep.Reading), rep.Model)
	line("warn", rep.Warn)
	line("pause", rep.Pause)
	printf(w, "%-14s %s tokens (from %s); Claude Code compacts at %s, %s\n", "window",
		notice.Thousands(rep.Window.Tokens), windowSource(rep.Window.Source), notice.Thousands(rep.Window.CompactsAt), rep.Window.PointWords())
	if rep.Priced {
		verb, saving := savesOr("does not pay yet: costs", *rep.SavingUSD)
		band := ""
		if b := rep.CarryOnBand; b != nil {
			band = fmt.Sprintf(" (%d in 10 sessions %s–%s)", int(math.Round(b.Share*10)), notice.USD(b.LowUSD), notice.USD(b.HighUSD))
		}
		printf(w, "%-14s %s %s over the next 100k tokens, after its %s up-front cost\n", "relaying now",
			verb, notice.USD(saving), notice.USD(*rep.RelayUpfrontUSD))
		printf(w, "%-14s costs %s over the next 100k tokens%s\n", "carrying on", notice.USD(*rep.CarryOnUSD), band)
		if rep.CompactUSD != nil {
			printf(w, "%-14s letting Claude Code compact at %s costs %s over the next 100k tokens (what it loses is not priced)\n", "compacting",
				notice.K(rep.Window.CompactsAt), notice.USD(*rep.CompactUSD))
		} else {
			printf(w, "%-14s not within the next 100k tokens (Claude Code compacts at %s)\n", "compacting", notice.K(rep.Window.CompactsAt))
		}
		v := rep.Verdict
		printf(w, "%-14s %s, over the next 100k tokens (policy %s)\n", "verdict", notice.VerdictShort(*v), v.Policy)
		ro := rep.Reorientation
		printf(w, "%-14s would spend about %s tokens (%s) finding its feet, going by %s\n", "a successor", notice.Thousands(ro.Tokens), notice.USD(ro.CostUSD), ro.Words)
		if f := rep.Forecast; f != nil {
			printf(w, "%-14s about %.0f requests per 100k tokens of growth, %.1f%% of the context re-written a request, %.0f output tokens a request\n",
				"pace", f.Requests, 100*f.RewriteRatio, f.OutPerRequest)
			if f.PaceFrom != "" {
				printf(w, "%-14s %s\n", "pace from", f.PaceFrom)
			}
		}
		printf(w, "%-14s %s\n", "cache lifetime", *rep.TTL)
	} else {
		printf(w, "%-14s not priced (the model is not in the price table, or MUTHUR_CONTEXT_BUDGET_LINES=fixed): the lines are the caps and the window's\n", "dollars")
	}
	printCold(w, rep.Cold)
	printf(w, "%-14s as of %s\n", "prices", rep.PricesAsOf)
	for _, warn := range rep.Warnings {
		printf(w, "warning: %s\n", warn)
	}
}

// coldReport is what `lines` adds when the session's cache is cold
// (design §14): the figures the UserPromptSubmit hook would stop the
// next prompt with.
type coldReport struct {
	IdleSeconds   int64   `json:"idle_seconds"`
	TTL           string  `json:"ttl"`
	Context       int64   `json:"context"`
	Prefix        int64   `json:"prefix"`
	RecacheUSD    float64 `json:"recache_usd"`
	CarryOnUSD    float64 `json:"carry_on_usd"`
	FreshUSD      float64 `json:"fresh_usd"`
	SavingUSD     float64 `json:"saving_usd"`
	ThresholdUSD  float64 `json:"threshold_usd"`
	WouldStop     bool    `json:"would_stop"`
	Reorientation string  `json:"reorientation"`
}

// linesNow is the clock `lines` checks the cache against; tests set it.
var linesNow = time.Now

// coldLines fills rep.Cold when the cache is cold at the moment `lines`
// runs and the session is priced.
func coldLines(rep *linesReport, path string, d *lines.Decision, h *forecast.History, r reading.Reading, threshold float64) {
	f, isCold, priced := cold.At(d, h, r, linesNow())
	if !isCold || !priced || cold.CompactedSince(path) {
		return
	}
	rep.Cold = &coldReport{IdleSeconds: int64(f.Idle / time.Second), TTL: f.TTL, Context: f.Context, Prefix: f.Prefix,
		RecacheUSD: *dollars(f.RecacheUSD), CarryOnUSD: *dollars(f.CarryOnUSD), FreshUSD: *dollars(f.FreshUSD),
		SavingUSD: *dollars(f.SavingUSD), ThresholdUSD: threshold, WouldStop: f.Pays(threshold),
		Reorientation: f.Reorientation.Words}
}

func printCold(w io.Writer, c *coldReport) {
	if c == nil {
		return
	}
	verb, saving := savesOr("costs", c.SavingUSD)
	stop := "the next prompt passes"
	if c.WouldStop {
		stop = "the next prompt is stopped"
	}
	printf(w, "%-14s idle %s, past the %s TTL: re-writing %s tokens costs %s; a fresh session costs %s over the next 100k tokens against %s carrying on (%s %s; %s at %s)\n",
		"cold cache", cold.Idle(time.Duration(c.IdleSeconds)*time.Second), c.TTL, notice.Thousands(c.Context), notice.USD(c.RecacheUSD),
		notice.USD(c.FreshUSD), notice.USD(c.CarryOnUSD), verb, notice.USD(saving), stop, notice.USD(c.ThresholdUSD))
}

// transcriptDir is where Claude Code keeps the transcripts of the project
// at root: <config>/projects/<folder>, the folder being
// $CLAUDE_CODE_PROJECT_DIR_NAME when set, else root's absolute path with
// every character other than a letter or digit replaced by "-".
func transcriptDir(root string) string {
	home, _ := os.UserHomeDir()
	folder := os.Getenv("CLAUDE_CODE_PROJECT_DIR_NAME")
	if folder == "" {
		abs, err := filepath.Abs(root)
		if err != nil {
			abs = root
		}
		folder = settings.ProjectSlug(abs)
	}
	return filepath.Join(settings.ConfigDir(os.Getenv, home), "projects", folder)
}

// newestTranscript is the most recently written transcript of the
// project at root ("" when it has none) and the folder it looked in.
func newestTranscript(root string) (string, string, error) {
	dir := transcriptDir(root)
	newest, err := newestFile(dir, ".jsonl")
	return newest, dir, err
}

// newestFile is the most recently written regular file of dir whose name
// ends in suffix, "" when there is none (or no dir). Ties go to the name
// that sorts last, so the answer is stable.
func newestFile(dir, suffix string) (string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	newest, best := "", int64(0)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), suffix) || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && (newest == "" || fi.ModTime().UnixNano() >= best) {
			newest, best = filepath.Join(dir, e.Name()), fi.ModTime().UnixNano()
		}
	}
	return newest, nil
}
