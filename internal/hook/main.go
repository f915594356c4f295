package hook

import (
	"fmt"
	"os"
)

// Main is the program Claude Code runs, context-budget, with its
// arguments: it answers the hook and the status line, and runs
// context-budget-cli in its place for every other command and for
// --help. It returns the exit status.
func Main(args []string) int {
	if len(args) > 0 && !helpAsked(args[1:]) {
		switch args[0] {
		case "hook":
			return Run(os.Stdin, os.Stdout, os.Stderr, Exec{})
		case "statusline":
			return Statusline(args[1:], os.Stdin, os.Stdout)
		}
	}
	return delegate(args)
}

// helpAsked reports whether args ask for a command's help, which
// context-budget-cli prints.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// delegate runs context-budget-cli with args in this process's place and
// returns only when it cannot: then it says why, exit status 1.
func delegate(args []string) int {
	prog, err := FullProgram()
	if err == nil {
		err = run(prog, args)
	}
	fmt.Fprintf(os.Stderr, "context-budget: error: %v\n", err)
	fmt.Fprintf(os.Stderr, "context-budget: hint: context-budget answers the hook and the status line; every other command is %s's: %s\n", FullName, InstallCommand)
	return 1
}
