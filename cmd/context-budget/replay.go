package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/policy"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/settings"
)

// runReplay is `context-budget replay [--json] [--html FILE] [PATH…]`.
func runReplay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	html := fs.String("html", "", "write a self-contained HTML report with plots to `FILE`")
	readings := fs.Bool("readings", false, "with --json, include every session's readings")
	workers := fs.Int("workers", 0, "files replayed at once (default: one per CPU)")
	var rf replayFuse
	rf.flags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: context-budget replay [--json] [--html FILE] [PATH…]")
		fs.PrintDefaults()
	}
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
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
	s, err := config.FromEnv(os.Getenv)
	if err != nil {
		return fail(stderr, err, "fix or unset the variable")
	}
	sources, err := replay.Discover(paths)
	if err != nil {
		return fail(stderr, err, "replay takes transcripts (.jsonl) or folders of them, by default ~/.claude/projects")
	}
	// The lines to show the peaks against: a session's on the default
	// 200k window before pricing moves them.
	ls := policy.Decide(policy.Input{Settings: s, Getenv: os.Getenv}).Lines
	table, err := prices.Load(prices.OverrideFiles(projectRoot(""), os.Getenv))
	if err != nil {
		return fail(stderr, err, "fix or remove the price file")
	}
	opt := replayOptions(s, table, os.Getenv)
	opt.Workers = *workers
	opt.Series = *readings || *html != ""
	if isTerminal(stderr) {
		opt.Progress = progressPrinter(stderr)
	}
	rep := replay.Run(sources, opt)
	rep.Lines = ls
	rf.apply(&rep, sources, table)
	if *html != "" {
		if err := writeHTML(rep, *html); err != nil {
			return fail(stderr, err, reportHint)
		}
	}
	if !*readings {
		for i := range rep.Sessions {
			s := &rep.Sessions[i]
			s.Readings, s.WarnLines, s.PauseLines = nil, nil, nil
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fail(stderr, err, "")
		}
		return 0
	}
	if err := writeReplayTable(stdout, rep); err != nil {
		return fail(stderr, err, "")
	}
	return 0
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

// isTerminal reports whether w is a terminal, where progress may be drawn.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
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
		fmt.Fprintf(w, "\rreplay: %d/%d files, %.0f/%.0f MB, %.0f MB/s ", p.Files, p.TotalFiles,
			mb, float64(p.TotalBytes)/1e6, rate)
		if p.Done {
			fmt.Fprintln(w)
		}
	}
}
