package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/muthur/context-budget/internal/cli"
)

// cliName is the program that holds every command but the hook and the
// status line.
const cliName = cli.CLIProgram

// delegate runs context-budget-cli with args in this process's place and
// returns only when it cannot: then it says why, exit status 1.
func delegate(args []string) int {
	prog, err := findCLI()
	if err == nil {
		err = run(prog, args)
	}
	fmt.Fprintf(os.Stderr, "context-budget: error: %v\n", err)
	fmt.Fprintf(os.Stderr, "context-budget: hint: context-budget answers the hook and the status line; every other command is %s's: %s\n", cliName, cli.InstallCommand)
	return 1
}

// findCLI finds context-budget-cli beside this program, else on PATH.
func findCLI() (string, error) {
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), cliName+exeSuffix)
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return beside, nil
		}
	}
	p, err := exec.LookPath(cliName)
	if err != nil {
		return "", errors.New(cliName + " is not installed beside context-budget nor on PATH")
	}
	return p, nil
}
