package guard

// The tools other than Bash: the paths their input names. Claude Code's
// own tools name their paths under known keys, and carry free text under
// others; any other tool (an MCP server's, one Claude Code adds later)
// may name a path under any key, at any depth, so each of its strings is
// taken for a path.

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
)

// builtins are Claude Code's own tools, each with the keys that hold its
// paths; the others hold free text (content, old_string, new_string,
// prompt, description), commands or addresses. Those with none only read,
// ask or plan.
func builtins() map[string][]string {
	return map[string][]string{
		"Write": {"file_path"}, "Edit": {"file_path"}, "MultiEdit": {"file_path"}, "NotebookEdit": {"notebook_path"},
		"Read": nil, "NotebookRead": nil, "Glob": nil, "Grep": nil, "LS": nil, "WebFetch": nil, "WebSearch": nil,
		"TodoWrite": nil, "Task": nil, "Agent": nil, "AskUserQuestion": nil, "ExitPlanMode": nil, "EnterPlanMode": nil,
		"BashOutput": nil, "KillShell": nil, "KillBash": nil, "SlashCommand": nil, "Skill": nil, "TaskCreate": nil,
		"TaskUpdate": nil, "TaskList": nil, "TaskGet": nil, "TaskOutput": nil, "TaskStop": nil, "ListMcpResourcesTool": nil,
		"ReadMcpResourceTool": nil,
	}
}

// readVerbs start the names of other tools that only read, unless a
// writeWord is in the name too; removeVerbs are in those that remove or
// move.
var (
	readVerbs   = []string{"read", "list", "get", "search", "find", "view", "stat", "directory_tree", "info"}
	writeWords  = []string{"write", "creat", "edit", "updat", "set", "put", "delet", "remov", "mov", "renam", "save", "append", "patch", "replac", "copy", "cp", "mkdir", "touch", "upload", "exec", "run", "link", "chmod"}
	removeVerbs = []string{"delete", "remove", "move", "rename", "rm", "clean"}
)

// maxStrings bounds the strings of one tool's input taken for paths, and
// maxInputDepth how deep its input is walked.
const (
	maxStrings    = 1000
	maxInputDepth = 64
)

// toolLifts says how a tool call other than Bash would lift the fuse: a
// tool that writes naming a path within a place, or, by a name that
// removes or moves, above one. Claude Code's own tools are read at the
// keys that hold their paths; an edit of a settings file is denied only
// when it changes what the fuse stands on there (settingsChange). Any
// other tool's every string, at any depth, is a path.
func (g *guard) toolLifts(tool string, input json.RawMessage) string {
	if tool == "PowerShell" {
		// A shell's command: read as code is read.
		if cmd, ok := bashCommand(input); ok {
			g.code = append(g.code, code{cmd, g.cwd})
			return g.text()
		}
		return ""
	}
	if keys, ok := builtins()[tool]; ok {
		if len(keys) == 0 {
			return ""
		}
		var in map[string]json.RawMessage
		if json.Unmarshal(input, &in) != nil {
			return ""
		}
		for _, k := range keys {
			var p string
			if json.Unmarshal(in[k], &p) != nil || p == "" {
				continue
			}
			w := word{text: g.home(p)}
			if why := g.check(w, g.cwd, writes); why != "" {
				if g.settingsFile(absIn(w.text, g.cwd)) {
					return settingsChange(tool, absIn(w.text, g.cwd), in)
				}
				return why
			}
		}
		return ""
	}
	name := tool
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	name = strings.ToLower(name)
	if slices.ContainsFunc(readVerbs, func(v string) bool { return strings.HasPrefix(name, v) }) &&
		!slices.ContainsFunc(writeWords, func(v string) bool { return strings.Contains(name, v) }) {
		return ""
	}
	how := writes
	if slices.ContainsFunc(removeVerbs, func(v string) bool { return strings.Contains(name, v) }) {
		how = removes
	}
	var in any
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	var why string
	n := 0
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if why != "" || depth > maxInputDepth {
			return
		}
		switch v := v.(type) {
		case string:
			if n++; n > maxStrings || len(v) > 4096 || strings.ContainsAny(v, "\n\x00") {
				return
			}
			p := g.home(strings.TrimPrefix(v, "file://"))
			why = g.check(word{text: p, glob: strings.ContainsAny(p, "*?")}, g.cwd, how)
		case []any:
			for _, x := range v {
				walk(x, depth+1)
			}
		case map[string]any:
			for _, x := range v {
				walk(x, depth+1)
			}
		}
	}
	walk(in, 0)
	return why
}

// settingsFile reports whether path is one of the settings files the
// guard keeps: the user's, the project's, the local and the managed.
func (g *guard) settingsFile(path string) bool {
	rel, pl := g.relate(path, writes)
	base := filepath.Base(path)
	return rel == within && (pl.what == settingsWhat || pl.what == managedWhat) &&
		(base == "settings.json" || base == "settings.local.json" || base == "managed-settings.json")
}

// heldKeys are the keys of a settings file the fuse stands on: its hooks
// and whether they run, the plugins that bring theirs, and env, where its
// caps and the variables that tune it are set.
var heldKeys = []string{"hooks", "disableAllHooks", "allowManagedHooksOnly", "enabledPlugins", "env"}

// settingsChange says why a Write, Edit or MultiEdit of the settings file
// path would lift the fuse, "" when it would not: when the file it would
// leave changes one of heldKeys, or is not JSON. Other keys stay free, so
// that a session under a cap may still edit its settings.
func settingsChange(tool, path string, in map[string]json.RawMessage) string {
	old, err := reading.ReadFile(path, reading.MaxSettings)
	if err != nil {
		old = nil // none yet, or unreadable: what it held counts as nothing
	}
	str := func(k string) string {
		var s string
		json.Unmarshal(in[k], &s)
		return s
	}
	var after []byte
	switch tool {
	case "Write":
		after = []byte(str("content"))
	case "Edit":
		var all bool
		json.Unmarshal(in["replace_all"], &all)
		after = edit(old, str("old_string"), str("new_string"), all)
	case "MultiEdit":
		var edits []struct {
			Old string `json:"old_string"`
			New string `json:"new_string"`
			All bool   `json:"replace_all"`
		}
		json.Unmarshal(in["edits"], &edits)
		after = old
		for _, e := range edits {
			after = edit(after, e.Old, e.New, e.All)
		}
	default:
		return "write, move or remove " + settingsWhat + " (" + path + ")"
	}
	was, _ := held(old)
	now, ok := held(after)
	switch {
	case !ok:
		return "leave " + settingsWhat + " that is not JSON, which Claude Code would not read (" + path + ")"
	case !bytes.Equal(was, now):
		return "change the hooks or the env of " + settingsWhat + " (" + path + "); its other keys stay free"
	}
	return ""
}

// edit is Edit's replacement of old by new in data: the first, or all.
func edit(data []byte, old, new string, all bool) []byte {
	if old == "" {
		return data
	}
	n := 1
	if all {
		n = -1
	}
	return bytes.Replace(data, []byte(old), []byte(new), n)
}

// held is the part of a settings file the fuse stands on (heldKeys), in
// one canonical form; ok is false for a file that is not a JSON object.
// No file is an empty one.
func held(data []byte) ([]byte, bool) {
	var all map[string]json.RawMessage
	if len(bytes.TrimSpace(data)) == 0 {
		all = map[string]json.RawMessage{}
	} else if json.Unmarshal(data, &all) != nil {
		return nil, false
	}
	keep := map[string]any{}
	for _, k := range heldKeys {
		var v any
		if json.Unmarshal(all[k], &v) == nil && v != nil {
			keep[k] = v
		}
	}
	out, _ := json.Marshal(keep)
	return out, true
}
