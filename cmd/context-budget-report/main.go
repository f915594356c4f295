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
	"os"

	"github.com/muthur/context-budget/internal/report"
)

func main() {
	os.Exit(report.Command(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
