/*
Context-budget-report draws the HTML report of a context-budget replay: one
self-contained page (no network needed to open it) with the totals, the
distribution of the sessions' peaks against the warn and pause lines, and
per session a chart of its context over its requests with the lines, the
notices and the compactions marked.

Usage:

	context-budget-report [-o FILE] [REPLAY.json]

It reads the replay as JSON (context-budget replay --json --readings), from
the file named or from standard input, and writes the page to FILE or to
standard output. context-budget replay --html FILE runs it for you; it is a
program of its own so that the hook's binary does not pay for the plotting
library at start-up.
*/
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/report"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("context-budget-report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the page to `FILE` instead of standard output")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: context-budget-report [-o FILE] [REPLAY.json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	in := stdin
	if fs.NArg() == 1 {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return fail(stderr, err, "")
		}
		defer f.Close()
		in = f
	}
	var rep replay.Report
	if err := json.NewDecoder(bufio.NewReader(in)).Decode(&rep); err != nil {
		return fail(stderr, fmt.Errorf("reading the replay: %w", err), "give it the output of context-budget replay --json --readings")
	}
	if *out == "" {
		w := bufio.NewWriter(stdout)
		if err := report.Render(w, rep); err != nil {
			return fail(stderr, err, "")
		}
		if err := w.Flush(); err != nil {
			return fail(stderr, err, "")
		}
		return 0
	}
	if err := writeFile(*out, rep); err != nil {
		return fail(stderr, err, "")
	}
	return 0
}

// writeFile writes the page next to its final name and renames it, so a
// failed run leaves no half page.
func writeFile(name string, rep replay.Report) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = report.Render(w, rep)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

func fail(stderr io.Writer, err error, hint string) int {
	fmt.Fprintf(stderr, "context-budget-report: error: %v\n", err)
	if hint != "" {
		fmt.Fprintf(stderr, "context-budget-report: hint: %s\n", hint)
	}
	return 1
}
