// Command context-budget-cli holds every command of context-budget: the
// ones typed by hand (lines, replay, ledger, install, doctor, budget,
// run, help) and, for completeness, the hook and the status line. Users run it
// as context-budget, which answers the hook and the status line itself,
// with less code to start, and runs this program for the rest.
//
// The manual: context-budget help manual.
package main

import (
	"os"

	"github.com/muthur/context-budget/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
