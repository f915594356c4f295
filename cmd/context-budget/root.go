package main

import (
	"os"
	"os/exec"
	"strings"
)

// projectRoot is the project a subcommand works on: the --project flag's
// value when given, else $CLAUDE_PROJECT_DIR (inside a Claude Code
// session), else the top of the git work tree around the current folder,
// else the current folder.
func projectRoot(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if d := os.Getenv("CLAUDE_PROJECT_DIR"); d != "" {
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
