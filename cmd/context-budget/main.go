// Command context-budget is the program Claude Code runs for every hook
// event (context-budget hook) and while a session is open (context-budget
// statusline). It answers those itself, with the hook package, and hands
// every other command (lines, replay, ledger, install, doctor, budget,
// help, …) to context-budget-cli, installed beside it, which it runs in
// its place; the hook itself runs context-budget-cli for what it does not
// answer (a recompute of the lines, a cold prompt).
//
// So this program links neither the commands nor what only they need
// (the price files' TOML reader, Claude Code's settings files, replay's
// report), and a hook call costs little more than a Go program's start.
//
// The manual: context-budget help manual.
package main

import (
	"os"

	"github.com/muthur/context-budget/internal/hook"
)

func main() {
	os.Exit(hook.Main(os.Args[1:]))
}
