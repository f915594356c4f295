package cold

import "strings"

// passCommands are the slash commands a cold cache never stops: /compact,
// /clear and /relay (the ways out of a big context; /relay take starts
// the fresh session), and the built-ins that make no model request, so
// re-write nothing.
var passCommands = map[string]bool{
	"compact": true, "clear": true, "relay": true,
	"add-dir": true, "agents": true, "bashes": true, "branch": true, "bug": true,
	"config": true, "context": true, "copy": true, "cost": true, "doctor": true,
	"effort": true, "exit": true, "export": true, "fast": true, "feedback": true,
	"fork": true, "help": true, "hooks": true, "ide": true, "keybindings": true,
	"login": true, "logout": true, "mcp": true, "memory": true, "model": true,
	"output-style": true, "permissions": true, "plugin": true, "plugins": true,
	"privacy-settings": true, "quit": true, "release-notes": true, "rename": true,
	"resume": true, "rewind": true, "sandbox": true, "skills": true, "stats": true,
	"status": true, "statusline": true, "tasks": true, "terminal-setup": true,
	"theme": true, "todos": true, "upgrade": true, "usage": true, "vim": true,
}

// Passes reports whether a prompt always passes a cold cache: one of the
// slash commands above (any case, with or without arguments), or a
// shell command ("!…"), which Claude Code runs without a model request.
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
	return passCommands[strings.ToLower(name)]
}
