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
// cover, in any config folder (CLAUDE_CONFIG_DIR changed or not): Claude
// Code by any spelling (ClaudeCode), by what it resolves to (the path
// in CLAUDE_CODE_EXECPATH, exec) or by a word that expands that variable
// however it changes it, but for claude's --version or --help;
// or a process's program through /proc, which may be Claude Code's.
func nestedSession(prog string, args []word, exec string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = a.text
	}
	if procExe(words[0]) {
		return "run a process's program through /proc (" + words[0] + "), which may be Claude Code's: a nested session this session's cap would not cover"
	}
	named := args[0].claude || runners(prog) && slices.ContainsFunc(args[1:], func(a word) bool { return a.claude })
	if !named && !ClaudeCode(words) && (exec == "" || filepath.Clean(words[0]) != filepath.Clean(exec)) {
		return ""
	}
	runs := func(a word) bool { return !slices.Contains([]string{"--version", "-v", "--help", "-h"}, a.text) }
	if runners(prog) || len(args) == 1 || slices.ContainsFunc(args[1:], runs) {
		return "start a nested Claude Code session, which this session's cap would not cover"
	}
	return ""
}

// ClaudeCode reports whether a command's words, its program first, run
// Claude Code: its program by any name (claude, claude.exe, a versioned
// binary of the native installer, the npm package's bin), its package or
// its bin through npx and the like, or a JavaScript runtime running its
// cli.js. The guard asks it of a command; the CLI of each process it
// descends from.
func ClaudeCode(words []string) bool {
	if len(words) == 0 {
		return false
	}
	prog := filepath.Base(filepath.ToSlash(words[0]))
	if runners(prog) {
		return slices.ContainsFunc(words[1:], func(w string) bool {
			base := filepath.Base(filepath.ToSlash(w))
			return claudeCode(w) || base == "claude" || base == "claude.exe"
		})
	}
	return prog == "claude" || prog == "claude.exe" || claudeCode(words[0])
}

// runners are the programs that run a package's bin or a script given in
// their words.
func runners(prog string) bool {
	return slices.Contains([]string{"npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun", "node", "nodejs", "deno"}, prog)
}

// procExe reports a path to a process's program as /proc shows it
// (/proc/PID/exe, /proc/self/exe, a task's), whichever process it is.
func procExe(p string) bool {
	p = filepath.Clean(p)
	return strings.HasPrefix(p, "/proc/") && filepath.Base(p) == "exe"
}

// agentCode are the names by which code reaches Claude Code without its
// program's name: the Agent SDK's packages (npm, and Python's modules,
// new and old) and the variable holding its program's path.
var agentCode = []string{"@anthropic-ai/claude-agent-sdk", "claude_agent_sdk", "claude_code_sdk", "CLAUDE_CODE_EXECPATH"}

// claudeCode reports a word that names Claude Code's program or package:
// the npm package (@anthropic-ai/claude-code and its bin, cli.js, or its
// platform package), or a versioned binary of the native installer
// (…/claude/versions/2.1.332).
func claudeCode(w string) bool {
	w = filepath.ToSlash(w)
	return strings.Contains(w, "claude-code") || strings.Contains(w, "/claude/versions/")
}

// claudeWhat is what Claude Code's program is, as a place a command
// gives a second name (copied).
const claudeWhat = "Claude Code's program"

// claudeProgram reports a path that is Claude Code's program, or a folder
// that holds it, by its name: claude or claude.exe, its npm package or
// the package's cli.js, a versioned binary of the native installer, or a
// process's program through /proc.
func claudeProgram(path string) bool {
	base := filepath.Base(path)
	return base == "claude" || base == "claude.exe" || procExe(path) || claudeCode(path) &&
		(strings.Contains(path, "@anthropic-ai/claude-code") || strings.Contains(path, "/claude/versions/"))
}
