// Command context-budget is the program Claude Code runs after every tool
// call (context-budget hook) and while a session is open (context-budget
// statusline). It answers those two itself and hands every other command
// (lines, replay, ledger, install, doctor, budget, help, …) to
// context-budget-cli, installed beside it, which it runs in its place.
//
// Why two programs: a hook call costs little more than starting a Go
// program, and a program starts slower the more code it links (its pages
// are faulted in, its tables walked). Linking only what the hook and the
// status line need measured 2–4% of a bare Go start less per call than
// the whole command line (the unarmed PreToolUse call: 1.09× that start,
// against 1.11–1.13×). A command typed by hand pays one more exec, a few
// milliseconds.
//
// The manual: context-budget help manual.
//
// The runtime's GOMAXPROCS updater is off (updatemaxprocs=0): it is a
// goroutine, and a re-read of the cgroup's CPU quota by sysmon, for a
// limit that changes over seconds, in a process that lives milliseconds.
// Measured: 2% less CPU per hook call. GOMAXPROCS still starts from the
// cgroup's limit, as in any Go program.
//
//go:debug updatemaxprocs=0
package main

import (
	"os"

	"github.com/muthur/context-budget/internal/cli"
)

func main() {
	cli.GrowStack()
	args := os.Args[1:]
	if len(args) > 0 {
		switch args[0] {
		case "hook":
			os.Exit(cli.RunHook(args[1:], os.Stdin, os.Stdout, os.Stderr))
		case "statusline":
			os.Exit(cli.RunStatusline(args[1:], os.Stdin, os.Stdout, os.Stderr))
		}
	}
	os.Exit(delegate(args))
}
