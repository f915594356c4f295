package fuse

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// The threat the lift guard meets is a model that follows a suggestion
// to lift its own limit with an ordinary command, not a determined
// attacker: a command built at run time (eval, a script file, base64)
// passes any hook. The checks are plain string tests on the tool's input.

// toolInput is the part of a tool's input the guard reads.
type toolInput struct {
	Command   string `json:"command"`
	FilePath  string `json:"file_path"`
	Notebook  string `json:"notebook_path"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
	Edits     []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
}

// liftingVerbs are the CLI's verbs that raise, reset or drop a cap:
// re-arming sets a new baseline, so it lifts too.
var liftingVerbs = map[string]bool{"arm": true, "reset": true, "disarm": true}

// IsStatus reports whether a tool call is only our CLI's budget status
// (or budget with no verb, which shows the status): the one fuse verb
// that stays open to the agent while a cap holds.
func IsStatus(tool string, input json.RawMessage) bool {
	if tool != "Bash" {
		return false
	}
	var in toolInput
	if json.Unmarshal(input, &in) != nil || strings.TrimSpace(in.Command) == "" {
		return false
	}
	for _, cmd := range simpleCommands(in.Command) {
		verb, ours := budgetVerb(cmd)
		if !ours || (verb != "status" && verb != "") {
			return false
		}
	}
	return true
}

// Lifts says how a tool call would lift the fuse ("" when it would not):
// our CLI's lifting verbs, uninstalling the hooks, writing the fuse's own
// files, or changing the env or hooks of a Claude Code settings file.
func Lifts(tool string, input json.RawMessage, root string) string {
	var in toolInput
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	switch tool {
	case "Bash":
		return bashLifts(in.Command)
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		path := in.FilePath
		if path == "" {
			path = in.Notebook
		}
		if isFusePath(path) {
			return "change the fuse's own state (" + path + ")"
		}
		if !isSettings(path) {
			return ""
		}
		if tool == "Write" {
			return "replace a Claude Code settings file (" + path + "), which can change its env or hooks"
		}
		texts := []string{in.OldString, in.NewString}
		for _, e := range in.Edits {
			texts = append(texts, e.OldString, e.NewString)
		}
		for _, t := range texts {
			if touchesEnv(t) {
				return "change the env or hooks of a Claude Code settings file (" + path + ")"
			}
		}
	}
	return ""
}

func bashLifts(command string) string {
	for _, cmd := range simpleCommands(command) {
		verb, ours := budgetVerb(cmd)
		if ours && liftingVerbs[verb] {
			return "run context-budget budget " + verb
		}
		if w := words(cmd); len(w) > 1 && isOurs(w[0]) && w[1] == "uninstall" {
			return "uninstall context-budget's hooks"
		}
	}
	if strings.Contains(filepath.ToSlash(command), "tmp/context-budget") {
		return "touch the fuse's own state (tmp/context-budget)"
	}
	if (strings.Contains(command, "settings.json") || strings.Contains(command, "settings.local.json")) && touchesEnv(command) {
		return "change the env or hooks of a Claude Code settings file"
	}
	return ""
}

// touchesEnv reports whether a text names a settings file's env or
// hooks, or one of our variables.
func touchesEnv(s string) bool {
	return strings.Contains(s, "env") || strings.Contains(s, "MUTHUR_") ||
		strings.Contains(s, "hooks") || strings.Contains(s, "context-budget")
}

// isFusePath reports whether path lies in a project's state folder, where
// the fuse, its tally and the loop's calls are kept.
func isFusePath(path string) bool {
	return strings.Contains(filepath.ToSlash(path), "tmp/context-budget/")
}

// isSettings reports whether path is a Claude Code settings file.
func isSettings(path string) bool {
	switch filepath.Base(filepath.ToSlash(path)) {
	case "settings.json", "settings.local.json", "managed-settings.json":
		return true
	}
	return false
}

// simpleCommands splits a shell command at ; & | and newlines, roughly:
// quotes are respected, nothing else is.
func simpleCommands(s string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';' || c == '&' || c == '|' || c == '\n' || c == '(' || c == ')' || c == '`':
			out = append(out, cur.String())
			cur.Reset()
			continue
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			out = append(out, cur.String())
			cur.Reset()
			i++
			continue
		}
		cur.WriteByte(c)
	}
	out = append(out, cur.String())
	var kept []string
	for _, c := range out {
		if strings.TrimSpace(c) != "" {
			kept = append(kept, c)
		}
	}
	return kept
}

// words splits a simple command into words, unquoting, and drops leading
// VAR=value assignments and wrappers (env, command, exec, sudo, nohup).
func words(cmd string) []string {
	var ws []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(cmd):
			i++
			cur.WriteByte(cmd[i])
			in = true
		case c == ' ' || c == '\t' || c == '\r':
			if in {
				ws = append(ws, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		ws = append(ws, cur.String())
	}
	for len(ws) > 0 {
		w := ws[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.Contains(w, "/"):
		case w == "env" || w == "command" || w == "exec" || w == "sudo" || w == "nohup" || w == "time":
		case w == "go" && len(ws) > 1 && ws[1] == "run":
			ws = ws[1:]
		default:
			return ws
		}
		ws = ws[1:]
	}
	return ws
}

// isOurs reports whether a program word names this program.
func isOurs(w string) bool {
	base := strings.TrimSuffix(filepath.Base(filepath.ToSlash(w)), ".exe")
	return base == "context-budget"
}

// budgetVerb returns the verb of a "context-budget budget VERB" command,
// and whether the command is ours and a budget one at all. Flags before
// the verb (--session ID) are skipped.
func budgetVerb(cmd string) (verb string, ours bool) {
	w := words(cmd)
	if len(w) < 2 || !isOurs(w[0]) || w[1] != "budget" {
		return "", false
	}
	for i := 2; i < len(w); i++ {
		if w[i] == "--session" || w[i] == "-session" {
			i++
			continue
		}
		if strings.HasPrefix(w[i], "-") {
			continue
		}
		return w[i], true
	}
	return "", true
}
