package main

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

//go:embed doc.go
var docSource string

// command is one subcommand: it gets its arguments and the process's
// streams and returns the exit status.
type command struct {
	name string
	run  func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is a static table, not one built in an init function: the
// hook pays for every package initialisation at each call.
var commands = [...]command{
	{"hook", runHook},
	{"lines", runLines},
	{"statusline", runStatusline},
	{"ledger", runLedger},
	{"replay", runReplay},
	{"install", runInstall},
	{"uninstall", runUninstall},
	{"doctor", runDoctor},
	{"help", runHelp},
	{"version", runVersion},
}

func main() {
	growStack()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: context-budget <command> [arguments]; see 'context-budget help'")
		return 2
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		name = "help"
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "context-budget: error: unknown command %q\ncontext-budget: hint: see 'context-budget help'\n", args[0])
	return 2
}

// manual returns the package comment of doc.go as plain text.
func manual() string {
	s := docSource
	start := strings.Index(s, "/*\n")
	end := strings.Index(s, "*/")
	if start < 0 || end < start {
		return ""
	}
	return strings.TrimLeft(s[start+3:end], "\n")
}

func runHelp(args []string, _ io.Reader, stdout, _ io.Writer) int {
	io.WriteString(stdout, manual())
	return 0
}

func runVersion(args []string, _ io.Reader, stdout, _ io.Writer) int {
	fmt.Fprintln(stdout, "context-budget", version)
	return 0
}

// fail prints a command-line error and a hint, the CLI's way of saying no.
func fail(stderr io.Writer, err error, hint string) int {
	fmt.Fprintf(stderr, "context-budget: error: %v\n", err)
	if hint != "" {
		fmt.Fprintf(stderr, "context-budget: hint: %s\n", hint)
	}
	return 1
}
