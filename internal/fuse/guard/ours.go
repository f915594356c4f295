package guard

// Our own program and Claude Code's: the lifting verbs, the one call
// left open past a cap, and the new sessions a cap would not cover.

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
)

// budgetFlags are the options of budget that take a value.
var budgetFlags = []string{"--session", "-session", "--project", "-project"}

// StatusOnly reports whether a tool call is exactly our CLI's budget
// status: `context-budget budget [status] [--session ID] [--project DIR]
// [--json]`, either program by name or path, nothing else on the line
// and no shell syntax. It is the one call left open past a cap.
func StatusOnly(tool string, input json.RawMessage) bool {
	if tool != "Bash" || !bytes.Contains(input, []byte("budget")) {
		return false
	}
	line, ok := bashCommand(input)
	if !ok || strings.ContainsAny(line, "$`;&|<>()\n\r\\*?[]{}=~#!") {
		return false
	}
	ws := parse(line, "", func(string) string { return "" })
	if len(ws) != 1 || ws[0].assign || len(ws[0].writes) > 0 {
		return false
	}
	w := ws[0].words
	if len(w) < 2 || !isOurs(w[0].text) || w[1].text != "budget" {
		return false
	}
	verb := false
	for i := 2; i < len(w); i++ {
		switch a := w[i].text; {
		case a == "status" && !verb:
			verb = true
		case a == "--json" || a == "-json":
		case slices.Contains(budgetFlags, a) && i+1 < len(w) && !strings.HasPrefix(w[i+1].text, "-"):
			i++
		default:
			return false
		}
	}
	return true
}

// isOurs reports whether a program word names this program, either of
// its names, as a name or a path.
func isOurs(w string) bool {
	base := strings.TrimSuffix(filepath.Base(filepath.ToSlash(w)), ".exe")
	return base == "context-budget" || base == "context-budget-cli"
}

// liftingVerbs are the budget verbs that raise, reset or drop a cap:
// re-arming sets a new baseline, so it lifts too.
var liftingVerbs = []string{"arm", "reset", "disarm"}

// ours says how a command of our program (or go run of it) would lift
// the fuse.
func ours(args []word, xargs bool) string {
	rest := args[1:]
	if filepath.Base(args[0].text) == "go" {
		rest = args[3:] // go run PKG …
	}
	sub := ""
	for len(rest) > 0 {
		a := rest[0]
		rest = rest[1:]
		if a.dyn {
			return "run context-budget with a command built at run time"
		}
		if !strings.HasPrefix(a.text, "-") {
			sub = a.text
			break
		}
	}
	switch sub {
	case "uninstall":
		return "uninstall context-budget's hooks"
	case "run":
		return "start a new session (context-budget run), which this session's cap would not cover"
	case "hook":
		return "answer a hook call by hand"
	case "budget":
	case "", "{}":
		if xargs {
			return "run context-budget with words from xargs' input"
		}
		return ""
	default:
		return ""
	}
	for len(rest) > 0 {
		a := rest[0]
		rest = rest[1:]
		switch {
		case a.dyn:
			return "run context-budget budget with a verb built at run time"
		case slices.Contains(budgetFlags, a.text):
			if len(rest) > 0 {
				rest = rest[1:]
			}
		case strings.HasPrefix(a.text, "-"):
		case slices.Contains(liftingVerbs, a.text):
			return "run context-budget budget " + a.text
		case xargs && a.text != "status":
			return "run context-budget budget with a verb from xargs' input"
		default:
			return ""
		}
	}
	if xargs {
		return "run context-budget budget with a verb from xargs' input"
	}
	return ""
}

// nestedSession says why a command starts a session the cap would not
// cover: claude itself (not its --version or --help), or its package
// through npx and the like.
func nestedSession(prog string, args []word) string {
	switch prog {
	case "npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun":
		if slices.ContainsFunc(args[1:], func(a word) bool { return strings.Contains(a.text, "claude-code") }) {
			return "start a nested Claude Code session, which this session's cap would not cover"
		}
	case "claude", "claude.exe":
		runs := func(a word) bool { return !slices.Contains([]string{"--version", "-v", "--help", "-h"}, a.text) }
		if len(args) == 1 || slices.ContainsFunc(args[1:], runs) {
			return "start a nested claude session, which this session's cap would not cover"
		}
	}
	return ""
}
