package cli

import (
	"encoding/json"
	"path/filepath"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
)

// InstallCommand installs the programs the plugin's hooks run; the
// plugin's SessionStart check (hooks/hooks.json), doctor, install and
// context-budget, when context-budget-cli is missing, name it.
const InstallCommand = "go install github.com/muthur/context-budget/cmd/...@latest"

// CLIProgram is the program that holds every command: context-budget
// (settings.Name) runs it in its place for any command but the hook and
// the status line, and install finds context-budget beside it.
const CLIProgram = settings.Name + "-cli"

// kebab reports whether s is a plugin name as Claude Code accepts it:
// lower-case letters and digits in words joined by single hyphens. (No
// regexp: its compilation would cost every hook call's start.)
func kebab(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// skillPrefix is how the skills the notices name are called where this
// hook was registered from. A plugin's hooks run with $CLAUDE_PLUGIN_ROOT
// set to the plugin's folder, whose skills Claude Code lists as
// <plugin>:<skill>; the plugin's name is in its manifest there. A hook
// registered in settings has no such variable: its skills are in
// .claude/skills/ under their own names, and the prefix is "".
func skillPrefix(getenv func(string) string) string {
	root := getenv("CLAUDE_PLUGIN_ROOT")
	if root == "" {
		return ""
	}
	data, err := reading.ReadFile(filepath.Join(root, ".claude-plugin", "plugin.json"), 64<<10)
	if err != nil {
		return ""
	}
	var m struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &m) != nil || !kebab(m.Name) {
		return ""
	}
	return m.Name + ":"
}
