package report

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
)

// Command is the context-budget-report program: it returns the exit
// status of a run with these arguments and streams.
func Command(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
		// The one opener: a regular file, never a FIFO or a device.
		f, _, err := reading.Open(fs.Arg(0))
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
	render := func(f io.Writer) error {
		w := bufio.NewWriter(f)
		if err := Render(w, rep); err != nil {
			return err
		}
		return w.Flush()
	}
	var err error
	if *out == "" {
		err = render(stdout)
	} else {
		// Written next to its final name and renamed, so a failed run
		// leaves no half page.
		err = atomicfile.Write(*out, atomicfile.Options{Perm: 0o644}, render)
	}
	if err != nil {
		return fail(stderr, err, "")
	}
	return 0
}

func fail(stderr io.Writer, err error, hint string) int {
	fmt.Fprintf(stderr, "context-budget-report: error: %v\n", err)
	if hint != "" {
		fmt.Fprintf(stderr, "context-budget-report: hint: %s\n", hint)
	}
	return 1
}
