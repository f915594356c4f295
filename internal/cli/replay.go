package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/ledger"
)

// runReplay is `context-budget replay [--json] [--html FILE] [PATH…]`.
func runReplay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("replay", "context-budget replay [--json] [--readings] [--html FILE] [--workers N] [--no-settings] [--spend AMOUNT] [--loop N] [PATH…]")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	html := fs.String("html", "", "write a self-contained HTML report with plots to `FILE`")
	readings := fs.Bool("readings", false, "with --json, include every session's readings")
	workers := fs.Int("workers", 0, "`N` files replayed at once (default: one per CPU)")
	noSettings := fs.Bool("no-settings", false, "ignore the env blocks of the Claude Code settings files (user, project, local)")
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
	ls := lines.Decide(lines.Input{Settings: s, Getenv: os.Getenv}).Lines
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
	opt = withSources(opt, sources, configDir)
	opt.Workers = *workers
	opt.Series = *readings || *html != ""
	if isTerminal(stderr) {
		opt.Progress = progressPrinter(stderr)
	}
	rep := replay.Run(sources, opt)
	rep.Lines = ls
	rf.apply(&rep, sources, table)
	chains(&rep)
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
		defer printf(where, "The report is in %s.\n", absOr(*html))
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

// chains sets each session's relay chain and place from its ledger row,
// where its project (the cwd its transcript names) keeps one: the report
// draws a chain as one entry.
func chains(rep *replay.Report) {
	for i := range rep.Sessions {
		s := &rep.Sessions[i]
		root := sessionCwd(s.Path)
		if root == "" || len(s.Started) < 7 || !state.PlainName(s.SessionID) {
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

// absOr is name made absolute, or name when that fails.
func absOr(name string) string {
	if a, err := filepath.Abs(name); err == nil {
		return a
	}
	return name
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
