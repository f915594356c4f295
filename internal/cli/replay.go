package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/muthur/context-budget/internal/compactions"
	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
	"github.com/muthur/context-budget/ledger"
)

// runReplay is `context-budget replay [--json] [--html FILE] [PATH…]`.
func runReplay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("replay", "context-budget replay [--json] [--readings] [--html FILE] [--workers N] [--no-settings] [--no-history] [--spend AMOUNT] [--loop N] [PATH…]")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	html := fs.String("html", "", "write a self-contained HTML report with plots to `FILE`")
	readings := fs.Bool("readings", false, "with --json, include every session's readings")
	workers := fs.Int("workers", 0, "`N` files replayed at once (default: one per CPU)")
	noSettings := fs.Bool("no-settings", false, "ignore the env blocks of the Claude Code settings files (user, project, local)")
	noHistory := fs.Bool("no-history", false, "learn where Claude Code compacts from the replayed sessions alone, not from the other transcripts under ~/.claude/projects")
	var rf replayFuse
	rf.flags(fs.FlagSet)
	paths, err := parseInterleaved(fs.FlagSet, args)
	if err != nil {
		return fs.failed(err, stdout, stderr)
	}
	if code := rf.parse(stderr); code >= 0 {
		return code
	}
	if len(paths) == 0 {
		home, err := os.UserHomeDir()
		if err != nil {
			return fail(stderr, err, "name the transcripts or folders to replay")
		}
		// Where Claude Code keeps the transcripts, as doctor finds them.
		paths = []string{filepath.Join(settings.ConfigDir(os.Getenv, home), "projects")}
	}
	s, err := tuning.FromEnv(os.Getenv)
	if err != nil {
		return fail(stderr, err, "fix or unset the variable")
	}
	if *html != "" {
		if err := checkReportPath(*html); err != nil {
			return fail(stderr, err, "name a file in a folder that exists")
		}
	}
	sources, err := replay.Discover(paths)
	if err != nil {
		return fail(stderr, err, "replay takes transcripts (.jsonl) or folders of them, by default ~/.claude/projects")
	}
	// The lines to show the peaks against: a session's on the default
	// 200k window before pricing moves them.
	ls := lines.Decide((&lines.Call{Settings: s, Getenv: os.Getenv}).Input(nil)).Lines
	table, _, err := priceTable(projectRoot(""), os.Getenv, false)
	if err != nil {
		return fail(stderr, err, "fix or remove the price file")
	}
	opt := replayOptions(s, table, os.Getenv)
	configDir := ""
	if !*noSettings {
		home, _ := os.UserHomeDir()
		configDir = settings.ConfigDir(os.Getenv, home)
		opt = replayOptionsWithSettings(table, os.Getenv, configDir)
	}
	opt.Workers = *workers
	h := replayHistory{ConfigDir: configDir, Getenv: os.Getenv}
	if !*noHistory {
		// The hook learns from every other transcript under the projects
		// folder, wherever the replayed ones lie.
		if home, err := os.UserHomeDir(); err == nil {
			h.Transcripts = compactions.Transcripts(filepath.Join(settings.ConfigDir(os.Getenv, home), "projects"))
		}
	}
	opt = withSources(opt, sources, h)
	opt.Series = *readings || *html != ""
	if isTerminal(stderr) {
		opt.Progress = progressPrinter(stderr)
	}
	rep := replay.Run(sources, opt)
	rep.Lines = ls
	rf.apply(&rep, sources, table)
	fromProjects(&rep)
	teamTables(&rep, projectRoot(""))
	if *html != "" {
		if err := writeHTML(rep, *html); err != nil {
			hint := ""
			if errors.Is(err, errNoReportProgram) {
				hint = reportHint
			}
			return fail(stderr, err, hint)
		}
		// Say where the page went: on stderr when stdout is JSON.
		where := stdout
		if *asJSON {
			where = stderr
		}
		page, err := filepath.Abs(*html)
		if err != nil {
			page = *html
		}
		defer printf(where, "The report is in %s.\n", page)
	}
	if !*readings {
		for i := range rep.Sessions {
			s := &rep.Sessions[i]
			s.Readings, s.WarnLines, s.PauseLines = nil, nil, nil
		}
	}
	if *asJSON {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fail(stderr, err, "")
		}
		writeJSON(stdout, data)
		return 0
	}
	if err := writeReplayTable(stdout, rep); err != nil {
		return fail(stderr, err, "")
	}
	return 0
}

// fromProjects sets what each session's project says of it: the project
// is the folder the session ran in (the cwd its transcript names), where
// it names one, and the relay chain and place come from its ledger row,
// where the project keeps one: the report draws a chain as one entry.
func fromProjects(rep *replay.Report) {
	for i := range rep.Sessions {
		s := &rep.Sessions[i]
		root := sessionCwd(s.Path)
		if root == "" {
			continue
		}
		s.Project = root
		if len(s.Started) < 7 || !state.PlainName(s.SessionID) {
			continue
		}
		data, err := reading.ReadFile(filepath.Join(ledger.Dir(root), s.Started[:7], s.SessionID+".json"), reading.MaxLedgerRow)
		if err != nil {
			continue
		}
		if row, err := ledger.Parse(data); err == nil {
			s.Chain, s.Place = row.Chain, row.Place
		}
	}
}

// parseInterleaved parses flags that may come before, between or after the
// paths, as people type them.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			return append(rest, left...), nil
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// isTerminal reports whether v (a stream) is a terminal: where replay may
// draw its progress, and where lines must not wait for a payload nobody
// will type.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressPrinter redraws one line on w: files done of total, MB read and
// the rate.
func progressPrinter(w io.Writer) func(replay.Progress) {
	return func(p replay.Progress) {
		mb := float64(p.Bytes) / 1e6
		rate := 0.0
		if s := p.Elapsed.Seconds(); s > 0 {
			rate = mb / s
		}
		printf(w, "\rreplay: %d/%d files, %.0f/%.0f MB, %.0f MB/s ", p.Files, p.TotalFiles,
			mb, float64(p.TotalBytes)/1e6, rate)
		if p.Done {
			fmt.Fprintln(w)
		}
	}
}

// replayFuse holds replay's --spend, --loop and --burn.
type replayFuse struct {
	spend string
	loop  int
	burn  float64
	cap   tuning.Amount
}

func (f *replayFuse) flags(fs *flag.FlagSet) {
	fs.StringVar(&f.spend, "spend", "", "also show where a session cap of `AMOUNT` ('$5', 5usd, 2m) would have warned and halted")
	fs.IntVar(&f.loop, "loop", 0, "also show where `N` identical tool calls in a row would have halted")
	fs.Float64Var(&f.burn, "burn", 0, "also show where a spend of `USD` in 5 minutes would have warned (as "+tuning.EnvBurn+")")
}

func (f *replayFuse) parse(stderr io.Writer) int {
	if f.spend != "" {
		a, err := tuning.ParseAmount(f.spend)
		if err != nil {
			printf(stderr, "context-budget: error: --spend: %v\n", err)
			return 2
		}
		f.cap = a
	}
	if f.loop < 0 || f.loop == 1 {
		fmt.Fprintln(stderr, "context-budget: error: --loop must be 2 or more")
		return 2
	}
	if f.burn < 0 || f.burn > 1e9 || f.burn != f.burn {
		fmt.Fprintln(stderr, "context-budget: error: --burn must be a dollar amount per 5 minutes such as 2.50")
		return 2
	}
	return -1
}

// apply replays the fuse over every session of rep.
func (f *replayFuse) apply(rep *replay.Report, sources []replay.Source, table *prices.Table) {
	if f.cap.IsZero() && f.loop == 0 && f.burn == 0 {
		return
	}
	paths := map[string][]string{}
	for _, s := range sources {
		paths[s.Path] = s.Subagents
	}
	price := fuse.TablePricer(table)
	var outs []*fuse.Outcome
	for i := range rep.Sessions {
		s := &rep.Sessions[i]
		o := fuse.ReplaySession(s.Path, paths[s.Path], f.cap, f.loop, f.burn, price)
		s.Fuse = &o
		outs = append(outs, &o)
	}
	sum := fuse.Summarize(f.cap, f.loop, f.burn, outs)
	rep.Fuse = &sum
}

// reportProgram draws the HTML report, so that the CLI does not link the
// plotting library.
const reportProgram = "context-budget-report"

const reportHint = "context-budget-report draws the HTML report; install it beside context-budget (make install does)"

// errNoReportProgram says context-budget-report is nowhere to be found:
// the one failure of --html that reinstalling cures.
var errNoReportProgram = errors.New(reportProgram + " not found beside context-budget or on PATH")

// checkReportPath fails early, before a long replay, when the page cannot
// be written where asked: its folder missing, not a folder, or the name a
// folder itself.
func checkReportPath(file string) error {
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return fmt.Errorf("--html %s: is a folder", file)
	}
	dir := filepath.Dir(file)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("--html %s: %w", file, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("--html %s: %s is not a folder", file, dir)
	}
	return nil
}

// writeHTML hands the replay to context-budget-report, found beside this
// executable or on PATH, which writes the report to file.
func writeHTML(rep replay.Report, file string) error {
	prog, err := findReportProgram()
	if err != nil {
		return err
	}
	data, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	cmd := exec.Command(prog, "-o", file)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		// The program's own error says what went wrong (a folder that
		// cannot be written, say); pass on its first line without its name.
		if msg := bytes.TrimSpace(stderr.Bytes()); len(msg) > 0 {
			first, _, _ := bytes.Cut(msg, []byte("\n"))
			first = bytes.TrimPrefix(first, []byte(reportProgram+": error: "))
			return fmt.Errorf("writing the report: %s", first)
		}
		return fmt.Errorf("%s: %w", reportProgram, err)
	}
	return nil
}

func findReportProgram() (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), reportProgram)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(reportProgram)
	if err != nil {
		return "", errNoReportProgram
	}
	return p, nil
}

// replayOptions builds the lines and the prices a replay uses: the hook's
// policy with these settings and this price table (nil: the embedded
// one), kept by the line cache's rule (replay.PolicyModel). It touches
// nothing of the session's project.
func replayOptions(s tuning.Settings, table *prices.Table, getenv func(string) string) replay.Options {
	if table == nil {
		table, _ = prices.Embedded()
	}
	return replay.Options{
		NewModel: func(path string) replay.Model { return replay.NewPolicyModel(s, table, "", path, getenv) },
		Prices:   replay.TablePrices{Table: table},
	}
}

// replayOptionsWithSettings is replayOptions where each session's settings
// come from the environment its hook saw: getenv under the env blocks of
// the Claude Code settings files of the user (in configDir) and of the
// session's project (its cwd), in Claude Code's precedence. A session
// whose settings do not parse gets no notice, as its hook stayed silent.
func replayOptionsWithSettings(table *prices.Table, getenv func(string) string, configDir string) replay.Options {
	opt := replayOptions(tuning.Settings{}, table, getenv)
	if table == nil {
		table, _ = prices.Embedded()
	}
	opt.NewModel = func(path string) replay.Model {
		env, _ := settings.Env(getenv, configDir, sessionCwd(path))
		s, err := tuning.FromEnv(env)
		if err != nil {
			never := lines.Line{Tokens: math.MaxInt64, SetBy: lines.Env}
			return replay.FixedModel(lines.Lines{Warn: never, Pause: never})
		}
		return replay.NewPolicyModel(s, table, "", path, env)
	}
	return opt
}

// replayHistory is what replay learns where Claude Code compacts from,
// besides the replayed sessions themselves: the transcripts of the
// user's other sessions (the hook's history, under the projects folder),
// the settings in ConfigDir ("": none read) and each project's, over
// Getenv.
type replayHistory struct {
	Transcripts []string
	ConfigDir   string
	Getenv      func(string) string
	// Indexed, when not nil, holds files already indexed whole (by
	// Index.UpdateAll): they are taken from it, not read again. It is
	// only read.
	Indexed *compactions.Index
}

// withSources gives each session's decision the compaction point's
// sources the hook read: the automatic compactions of the replayed
// sessions and of h's transcripts, indexed once, and of the ledger rows
// of each session's project, indexed once per project (the decision takes
// those before each response), each tagged with what moved the point in
// its project; and the autoCompactWindow the settings files in
// h.ConfigDir and the project's set.
func withSources(opt replay.Options, sources []replay.Source, h replayHistory) replay.Options {
	ix := &compactions.Index{Files: map[string]*compactions.File{}}
	if h.Indexed != nil {
		maps.Copy(ix.Files, h.Indexed.Files)
	}
	var paths []string
	listed := map[string]bool{}
	add := func(p string) {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		if !listed[abs] {
			listed[abs] = true
			if ix.Files[p] == nil {
				paths = append(paths, p)
			}
		}
	}
	for _, s := range sources {
		add(s.Path)
	}
	for _, t := range h.Transcripts {
		add(t)
	}
	ix.UpdateAll(paths, opt.Workers)
	tags := compactions.NewSettings(h.ConfigDir, h.Getenv)
	all, _ := ix.Seen()
	seen := compactions.History(all, tags)
	var mu sync.Mutex
	rows := map[string]*window.History{}
	rowsOf := func(root string) *window.History {
		mu.Lock()
		defer mu.Unlock()
		if r, ok := rows[root]; ok {
			return r
		}
		rows[root] = compactions.History(compactions.Rows(root), tags)
		return rows[root]
	}
	type rootModel struct{ root, model string }
	windows := map[rootModel]int64{}
	windowOf := func(root, model string) int64 {
		mu.Lock()
		defer mu.Unlock()
		k := rootModel{root, model}
		if n, ok := windows[k]; ok {
			return n
		}
		windows[k], _ = settings.CompactWindow(h.ConfigDir, root, model)
		return windows[k]
	}
	newModel := opt.NewModel
	opt.NewModel = func(path string) replay.Model {
		m := newModel(path)
		pm, ok := m.(*replay.PolicyModel)
		if !ok {
			return m
		}
		root := sessionCwd(path)
		pm.Seen = seen.WithRows(rowsOf(root))
		pm.Session, pm.Project = strings.TrimSuffix(filepath.Base(path), ".jsonl"), root
		if h.ConfigDir != "" {
			pm.CompactWindow = func(model string) int64 { return windowOf(root, model) }
		}
		return pm
	}
	return opt
}

// sessionCwd is the cwd of a transcript's first record that has one: the
// project the session ran in. It reads at most the first megabyte.
func sessionCwd(path string) string {
	f, _, err := reading.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	rd := reading.NewReader(f)
	read := 0
	for read < 1<<20 {
		line, err := rd.Next()
		if err != nil {
			return ""
		}
		read += len(line)
		if !bytes.Contains(line, []byte(`"cwd"`)) {
			continue
		}
		cwd := ""
		transcript.Decode(line, func(r *transcript.Record) {
			if cwd == "" {
				cwd = r.Cwd
			}
		})
		if cwd != "" {
			return cwd
		}
	}
	return ""
}

// writeReplayTable prints a replay for a person: a row per session, then
// the totals.
func writeReplayTable(w io.Writer, rep replay.Report) error {
	home, _ := os.UserHomeDir()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "SESSION\tPROJECT\tCOST\tRESPONSES\tPEAK\tCOMPACTIONS\tNOTICES\tCARRY-ON PREDICTED/ACTUAL\tCOLD RE-WRITES/STOPS"
	if rep.Fuse != nil {
		head += "\tFUSE"
	}
	fmt.Fprintln(tw, head)
	for _, s := range rep.Sessions {
		var notices []string
		for _, n := range s.Notices {
			notices = append(notices, fmt.Sprintf("%s@%d %s", n.Level, n.Response, notice.K(n.Reading)))
		}
		noticesCol := firstFew(notices)
		if s.Error != "" {
			noticesCol += " (error: " + clip(s.Error, 40) + ")"
		}
		var carry []string
		for _, p := range s.Pauses {
			carry = append(carry, usdOrDash(p.PredictedCarryOnUSD)+"/"+usdOrDash(p.ActualCarryOnUSD))
		}
		fuseCol := ""
		if s.Fuse != nil {
			fuseCol = "\t" + s.Fuse.Describe()
		}
		printf(tw, "%s\t%s\t%s\t%d\t%s\t%d\t%s\t%s\t%s%s\n", s.SessionID, clipStart(replay.HomePath(s.Project, home), 30), usdOrDash(s.CostUSD),
			s.Responses, notice.K(s.Peak), s.Compactions, noticesCol, firstFew(carry), coldCell(s.Cold), fuseCol)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := rep.Totals
	if t.PricedSessions == 0 {
		fmt.Fprint(w, "\nNo session could be priced: their models are not in the price table")
	} else {
		printf(w, "\n%s cost %s at API rates, subagents included", theseSessions(t.PricedSessions), notice.USD(t.CostUSD))
	}
	if t.ForecastPauses > 0 {
		their := "their"
		if t.Sessions == 1 {
			their = "its"
		}
		printf(w, "; by the forecast, relaying at %s %s would have %s over the next 100k tokens of each, against its real alternative", their, notice.Count(t.ForecastPauses, "priced pause"), notice.NetSavedWords(t.ForecastSavingUSD))
	}
	fmt.Fprintln(w, ".")
	if t.CarryOnPoints > 0 {
		printf(w, "Checked: after %d of those pauses the session went on 100k tokens; there, by what carrying on really cost, relaying would have %s (the forecast said %s).\n",
			t.CarryOnPoints, notice.SavedWords(t.CheckedSavingUSD), notice.USD(t.CheckedForecastUSD))
	}
	printf(w, "%s (%.1f MB, %s), %s", notice.Count(t.Sessions, "session"), float64(t.Bytes)/1e6,
		notice.Count(t.Responses, "response"), noticeCounts(t.Warnings, t.Pauses))
	if t.CompactedBeforeAnyNotice > 0 {
		printf(w, "; %d compacted before any notice", t.CompactedBeforeAnyNotice)
	}
	if t.Errors > 0 {
		printf(w, "; %d unreadable", t.Errors)
	}
	fmt.Fprintln(w, ".")
	if r := t.Rooms; r.Auto > 0 {
		printf(w, "Room before the %s: %d with a pause in the climb, %d with less than 20k tokens of room; median %s tokens, %.0f responses.\n",
			notice.Count(r.Auto, "automatic compaction"), r.Paused, r.Short, notice.K(r.MedianTokens), r.MedianResponses)
	}
	if v := t.Verdicts; len(v.Choices) > 0 {
		printf(w, "The pauses' verdicts, by the model: %s; against %s; relaying cost more than that at %d.\n",
			choiceCounts(v.Choices, choiceWords), choiceCounts(v.Against, againstWords), v.Costlier)
	}
	writeColdTotals(w, t.Cold)
	if rep.Fuse != nil {
		printf(w, "Fuse: %s.\n", rep.Fuse.Describe())
	}
	if t.Orientations > 0 {
		printf(w, "The relay side, checked at %d sessions: the prior's forecast of a fresh session's orientation against the session's own (fresh sessions stand in for successors): median absolute error %s in tokens, %s in dollars.\n",
			t.Orientations, pctOrDash(t.OrientationTokensMedianAbsError), pctOrDash(t.OrientationUSDMedianAbsError))
	}
	if t.Points > 0 {
		printf(w, "The forecast of carrying on 100k tokens, at the %s after which a session did: median absolute error %s (requests: %s).\n",
			notice.Count(t.Points, "response"), pctOrDash(t.CarryOnMedianAbsError), pctOrDash(t.RequestsMedianAbsError))
		for _, m := range t.CarryOnByModel {
			printf(w, "  %s: median absolute error %.0f%% over %s.\n", m.Model, 100*m.MedianAbsError, notice.Count(m.Points, "point"))
		}
	}
	return nil
}

// theseSessions opens the totals: "This session", "These 5 sessions".
func theseSessions(n int) string {
	if n == 1 {
		return "This session"
	}
	return "These " + notice.Count(n, "session")
}

// noticeCounts says how many notices there were and of which level,
// naming only the levels that came: "3 notices: 2 warnings, 1 pause",
// "no notice".
func noticeCounts(warnings, pauses int) string {
	if warnings+pauses == 0 {
		return "no notice"
	}
	var parts []string
	for _, c := range []struct {
		n    int
		noun string
	}{{warnings, "warning"}, {pauses, "pause"}} {
		if c.n > 0 {
			parts = append(parts, notice.Count(c.n, c.noun))
		}
	}
	return notice.Count(warnings+pauses, "notice") + ": " + strings.Join(parts, ", ")
}

// The choices in words: what the agent was told, and the alternative.
var (
	choiceWords  = map[string]string{lines.ChoiceRelay: "relay", lines.ChoiceCompact: "go on to Claude Code's compaction", lines.ChoiceCarryOn: "carry on"}
	againstWords = map[string]string{lines.ChoiceCompact: "letting Claude Code compact", lines.ChoiceCarryOn: "carrying on"}
)

// choiceCounts says how many pauses each choice counts, in words:
// "relay at 12, carry on at 1".
func choiceCounts(c map[string]int, words map[string]string) string {
	var parts []string
	for _, k := range []string{lines.ChoiceRelay, lines.ChoiceCompact, lines.ChoiceCarryOn} {
		if c[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s at %d", words[k], c[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// shownNotices is how many notices a row of the table shows; --json has
// them all.
const shownNotices = 2

// firstFew is a cell of the first shownNotices of parts, then how many
// more there are; "-" for none.
func firstFew(parts []string) string {
	if len(parts) == 0 {
		return "-"
	}
	cell := strings.Join(parts[:min(len(parts), shownNotices)], ", ")
	if more := len(parts) - shownNotices; more > 0 {
		cell += fmt.Sprintf(" +%d more", more)
	}
	return cell
}

func usdOrDash(v *float64) string {
	if v == nil {
		return "-"
	}
	return notice.USD(*v)
}

func pctOrDash(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", *v*100)
}

// coldCell is a session's cold column: "2 $1.23 / 1 saves $2.00", or "-".
func coldCell(events []replay.ColdEvent) string {
	var rewrites, stops int
	var cost, saving float64
	for _, e := range events {
		if e.Written > replay.ColdMinRewrite {
			rewrites++
			cost += e.RewriteUSD
		}
		if e.Stop {
			stops++
			saving += e.SavingUSD
		}
	}
	if rewrites == 0 && stops == 0 {
		return "-"
	}
	cell := fmt.Sprintf("%d %s", rewrites, notice.USD(cost))
	if stops > 0 {
		cell += fmt.Sprintf(" / %d saves %s", stops, notice.USD(saving))
	}
	return cell
}

// writeColdTotals is the totals' line on the cold cache.
func writeColdTotals(w io.Writer, t replay.ColdTotals) {
	if t.Rewrites == 0 && t.Stops == 0 {
		fmt.Fprintln(w, "Cold cache: no re-write of a context past 50k after an idle beyond the TTL, and no prompt the stop would have held back.")
		return
	}
	printf(w, "Cold cache: %s.\n", t.Words())
}
