package fuse

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/muthur/context-budget/internal/state"
)

// The threat the lift guard meets is a model that follows a suggestion
// to lift its own limit with an ordinary command, not a determined
// attacker: a command built at run time (eval, a script file, base64)
// passes any hook. The checks are plain string tests on the tool's input.

// toolInput is the part of a tool's input the guard reads.
type toolInput struct {
	Command  string `json:"command"`
	FilePath string `json:"file_path"`
	Notebook string `json:"notebook_path"`
}

// liftingVerbs are the CLI's verbs that raise, reset or drop a cap:
// re-arming sets a new baseline, so it lifts too.
// Slices, not maps, here and below: a map literal is built at package
// initialisation, which every hook call would pay.
var liftingVerbs = []string{"arm", "reset", "disarm"}

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
		return bashLifts(in.Command, root)
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		path := in.FilePath
		if path == "" {
			path = in.Notebook
		}
		if isFusePath(path) {
			return "change the fuse's own state (" + path + ")"
		}
		if isSettings(path) {
			// Any edit can move a cap's value ("$5" to "$500") or drop a
			// hook, so none is left open while a cap holds.
			return "change a Claude Code settings file (" + path + "), its env or hooks"
		}
	}
	return ""
}

func bashLifts(command, root string) string {
	for _, cmd := range simpleCommands(command) {
		verb, ours := budgetVerb(cmd)
		if ours && slices.Contains(liftingVerbs, verb) {
			return "run context-budget budget " + verb
		}
		w := words(cmd)
		if len(w) > 1 && isOurs(w[0]) && w[1] == "uninstall" {
			return "uninstall context-budget's hooks"
		}
		if len(w) > 1 && w[0] == "git" && w[1] == "clean" {
			for _, a := range w[2:] {
				if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "xX") {
					return "delete ignored files, the fuse's state among them (git clean -x)"
				}
			}
		}
		if len(w) > 1 && w[0] == "rm" {
			for _, a := range w[1:] {
				if !strings.HasPrefix(a, "-") && holdsState(a, root) {
					return "delete the fuse's state (rm " + a + ")"
				}
			}
		}
	}
	slash := filepath.ToSlash(command)
	if strings.Contains(slash, "tmp/context-budget") || strings.Contains(slash, "context-budget/") && mentionsStateFile(slash) {
		return "touch the fuse's own state (tmp/context-budget)"
	}
	if mentionsStateFile(slash) {
		return "touch the fuse's own state files"
	}
	if strings.Contains(command, "settings.json") || strings.Contains(command, "settings.local.json") {
		if !readsOnly(command) {
			return "change a Claude Code settings file, its env or hooks"
		}
	}
	return ""
}

// stateSuffixes end the names of the fuse's files in the state folder.
var stateSuffixes = []string{state.FuseSuffix, state.SpendSuffix, state.CallsSuffix, state.FuseSuffix + state.LockSuffix}

// mentionsStateFile reports whether a command names a file of the fuse's
// by its ending.
func mentionsStateFile(command string) bool {
	for _, w := range strings.FieldsFunc(command, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\'' || r == '"' || r == ';' || r == '&' || r == '|' || r == '>' || r == '<'
	}) {
		for _, suf := range stateSuffixes {
			if strings.HasSuffix(w, suf) {
				return true
			}
		}
	}
	return false
}

// holdsState reports whether removing path would remove the state
// folder: path is it or a folder above it.
func holdsState(path, root string) bool {
	if root == "" {
		return false
	}
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	st := filepath.Join(root, "tmp", "context-budget")
	if p == string(filepath.Separator) {
		return true
	}
	return p == st || strings.HasPrefix(st, p+string(filepath.Separator))
}

// readers are the programs that only read the files they are given.
var readers = []string{"cat", "head", "tail", "less", "grep", "rg", "jq", "ls", "wc", "diff", "stat", "file"}

// readsOnly reports whether a command only reads: no redirection, and
// every simple command one of the readers (jq without an in-place flag).
func readsOnly(command string) bool {
	if strings.ContainsAny(command, ">`") || strings.Contains(command, "$(") {
		return false
	}
	for _, cmd := range simpleCommands(command) {
		w := words(cmd)
		if len(w) == 0 || !slices.Contains(readers, w[0]) {
			return false
		}
		for _, a := range w[1:] {
			if a == "-i" || strings.HasPrefix(a, "--in-place") {
				return false
			}
		}
	}
	return true
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
