package cli

import (
	"os"
	"os/exec"
	"strings"
)

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
