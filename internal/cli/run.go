// Package cli is every command of context-budget, as context-budget-cli
// runs them: the table of commands (this file), one file per command,
// the manual (help/*.md, one file per topic, embedded for `help`) and the
// output rules every command follows (output.go). The program Claude Code
// runs on every tool call, context-budget, does not link this package:
// it answers the hook and the status line (package hook) and runs
// context-budget-cli for the rest.
package cli

import (
	"fmt"
	"io"

	"github.com/muthur/context-budget/internal/hook"
)

// version is set at build time with -ldflags
// "-X github.com/muthur/context-budget/internal/cli.version=…".
var version = "dev"

// command is one subcommand: its name, a one-line summary for `help`, the
// manual's topic about it (help/TOPIC.md, for `help NAME`), and what runs
// it with its arguments and the process's streams, returning the exit
// status.
type command struct {
	name    string
	summary string
	topic   string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is the command table, one entry per subcommand. `help` is not
// in it: it reads the table.
var commands = []command{
	{"hook", "the hooks Claude Code runs (PostToolUse and the rest)", "hook", runHook},
	{"lines", "where this session stands: the reading and both lines", "lines", runLines},
	{"statusline", "Claude Code's statusLine command", "statusline", runStatusline},
	{"ledger", "the project's session costs; ledger record is the Stop hook", "ledger", runLedger},
	{"replay", "what the hook would have done over past sessions", "replay", runReplay},
	{"install", "register the hooks and copy the skills", "install", runInstall},
	{"uninstall", "remove what install added", "install", runUninstall},
	{"doctor", "check what is installed and how the transcripts read", "doctor", runDoctor},
	{"budget", "the spend fuse: arm, status, reset or disarm a session's cap", "budget", runBudget},
	{"run", "an unattended run: claude -p, then a successor after each relay", "run", runChain},
	{"version", "print the version", "", runVersion},
}

// Run is the whole of context-budget-cli: it runs the command named by
// args[0] with the process's streams and returns the exit status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return usageError(stderr, "", fmt.Errorf("no command given"))
	}
	name := args[0]
	if name == "--version" || name == "-version" {
		name = "version"
	}
	if name == "help" || isHelpFlag(name) {
		return runHelp(args[1:], stdout, stderr)
	}
	if c, ok := lookup(name); ok {
		return c.run(args[1:], stdin, stdout, stderr)
	}
	switch name {
	case "recompute":
		// Not in the table: the hook's program runs it, no person does.
		return runRecompute(args[1:], stdin, stdout, stderr)
	case "keep":
		// Not in the table: run starts each session through it.
		return runKeep(args[1:], stdin, stdout, stderr)
	}
	return usageError(stderr, "", fmt.Errorf("unknown command %q", name))
}

// lookup finds a command of the table by name.
func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("version", "context-budget version")
	fs.topic = ""
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "version", fmt.Errorf("version takes no arguments"))
	}
	fmt.Fprintln(stdout, "context-budget", version)
	return 0
}

// InstallCommand installs the programs the plugin's hooks run; the
// plugin's SessionStart check (plugin/hooks/hooks.json), doctor, install and
// context-budget, when context-budget-cli is missing, name it.
const InstallCommand = hook.InstallCommand
