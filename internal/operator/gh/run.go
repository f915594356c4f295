package gh

import (
	"context"
	"fmt"
	"io"
)

// Run is the context-budget-operator command: it prints the operator's
// login and a newline, or nothing. The exit status is 0 when a login was
// printed and 1 otherwise; 2 for a usage error. With -v it says on stderr
// why there is no operator, in Login's fixed words: never a response's
// body or a header's value. The hook runs it without -v and reads only
// stdout.
func Run(args []string, stdout, stderr io.Writer) int {
	verbose := false
	for _, a := range args {
		switch a {
		case "-v", "--v", "-verbose", "--verbose":
			verbose = true
		default:
			fmt.Fprintln(stderr, "usage: context-budget-operator [-v]")
			return 2
		}
	}
	login, err := Login(context.Background(), testOnlyOptions)
	if err != nil {
		if verbose {
			fmt.Fprintf(stderr, "context-budget-operator: no operator: %v\n", err)
		}
		return 1
	}
	fmt.Fprintln(stdout, login)
	return 0
}

// testOnlyOptions are the options Run looks up with: zero, except in
// tests, which point it at a fake host.
var testOnlyOptions Options
