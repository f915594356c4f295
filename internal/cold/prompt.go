package cold

import (
	"slices"
	"strings"
)

// passCommands are the slash commands a cold cache never stops: /compact,
// /clear and /relay (the ways out of a big context; /relay take starts
// the fresh session), and the built-ins that make no model request, so
// re-write nothing.
// A slice, not a map: a map literal is built at package initialisation,
// which every hook call would pay.
var passCommands = []string{
	"compact", "clear", "relay", "add-dir", "agents", "bashes", "branch",
	"bug", "config", "context", "copy", "cost", "doctor", "effort", "exit",
	"export", "fast", "feedback", "fork", "help", "hooks", "ide",
	"keybindings", "login", "logout", "mcp", "memory", "model",
	"output-style", "permissions", "plugin", "plugins", "privacy-settings",
	"quit", "release-notes", "rename", "resume", "rewind", "sandbox",
	"skills", "stats", "status", "statusline", "tasks", "terminal-setup",
	"theme", "todos", "upgrade", "usage", "vim",
}

// pluginRelay is the relay skill as the plugin's users type it: Claude
// Code names a plugin's skill <plugin>:<skill>. Of the plugin's skills
// only the relay passes: the others make a model request like any prompt.
const pluginRelay = "context-budget:relay"

// Passes reports whether a prompt always passes a cold cache: one of the
// slash commands above (any case, with or without arguments), the
// plugin's relay (/context-budget:relay, /context-budget:relay take …),
// or a shell command ("!…"), which Claude Code runs without a model
// request.
func Passes(prompt string) bool {
	p := strings.TrimSpace(prompt)
	if strings.HasPrefix(p, "!") {
		return true
	}
	if !strings.HasPrefix(p, "/") {
		return false
	}
	name := p[1:]
	if i := strings.IndexAny(name, " \t\r\n"); i >= 0 {
		name = name[:i]
	}
	name = strings.ToLower(name)
	return name == pluginRelay || slices.Contains(passCommands, name)
}
