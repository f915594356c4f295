package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
)

// flagSet is a subcommand's flags with its usage lines, parsed the one way
// every subcommand shares: --help prints the usage on stdout (exit 0), a
// bad flag is a usage error in the house shape (exit 2), never Go's dump
// of every flag.
type flagSet struct {
	*flag.FlagSet
	// usage is the synopsis, one line per form.
	usage string
	// topic is the `help TOPIC` that says more, "" for none.
	topic string
}

// maxPayload bounds a hook payload read from stdin by a command.
const maxPayload = 64 << 20

// newFlags starts the flags of the subcommand name; usage is its synopsis.
func newFlags(name, usage string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, usage: usage, topic: strings.Fields(name)[0]}
}

// parseFlags parses args. ok is false when the command is done: code is 0
// after --help, 2 after a usage error (already printed).
func parseFlags(fs *flagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		return fs.failed(err, stdout, stderr), false
	}
	return 0, true
}

// failed turns a parse error into the exit status, printing the usage for
// --help and the error otherwise.
func (fs *flagSet) failed(err error, stdout, stderr io.Writer) int {
	if errors.Is(err, flag.ErrHelp) {
		fs.printHelp(stdout)
		return 0
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		msg = "unknown flag " + f
	}
	// The flag package names a flag with one dash; the help and the
	// manual with two, as people type them.
	return usageError(stderr, fs.Name(), errors.New(oneDash.ReplaceAllString(msg, "${1}--${2}")))
}

// oneDash finds a flag named with one dash in the flag package's errors.
var oneDash = regexp.MustCompile(`(^|[\s:])-([A-Za-z][\w-]*)`)

// printHelp writes the usage lines, the flags and where the manual says
// more.
func (fs *flagSet) printHelp(w io.Writer) {
	fmt.Fprintf(w, "usage: %s\n", strings.ReplaceAll(fs.usage, "\n", "\n       "))
	type row struct{ name, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		value, usage := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if value != "" {
			name += " " + strings.ToUpper(value)
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		rows = append(rows, row{name, usage})
		width = max(width, len(name))
	})
	rows = append(rows, row{"-h, --help", "print this"})
	width = max(width, len(rows[len(rows)-1].name))
	fmt.Fprintln(w, "\nflags:")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.name, r.usage)
	}
	if fs.topic != "" {
		fmt.Fprintf(w, "\nmore: context-budget help %s\n", fs.topic)
	}
}

// isHelpFlag reports whether arg asks for help.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help"
}

// wantsHelp reports whether args, before any "--", ask for help: for the
// commands Claude Code runs (hook, statusline), which read no flags of
// their own and must stay silent on anything else.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isHelpFlag(a) {
			return true
		}
	}
	return false
}

// envProjectDir is the variable Claude Code sets, for its hooks and the
// status line, to the project's root.
const envProjectDir = "CLAUDE_PROJECT_DIR"

// projectRoot is the project a subcommand works on: the --project flag's
// value when given, else $CLAUDE_PROJECT_DIR (inside a Claude Code
// session), else the top of the git work tree around the current folder,
// else the current folder.
func projectRoot(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if d := os.Getenv(envProjectDir); d != "" {
		return d
	}
	if out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output(); err == nil {
		if top := strings.TrimSpace(string(out)); top != "" {
			return top
		}
	}
	wd, _ := os.Getwd()
	return wd
}
