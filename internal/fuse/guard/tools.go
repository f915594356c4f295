package guard

// The tools other than Bash: the paths their input names. Claude Code's
// own tools name their paths under known keys, and carry free text under
// others; any other tool (an MCP server's, one Claude Code adds later)
// may name a path under any key, at any depth, so each of its strings is
// taken for a path.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	strs, ok := inputStrings(in, nil, 0)
	if !ok {
		return "hand a tool more than " + strconv.Itoa(maxStrings) + " strings, more than the guard reads in one call"
	}
	// A relative path is taken in the project and in every folder the
	// input names (a cwd key, a root).
	dirs := []string{g.cwd}
	for _, s := range strs {
		if p := g.asPath(s); filepath.IsAbs(p) && !slices.Contains(dirs, filepath.Clean(p)) {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				dirs = append(dirs, filepath.Clean(p))
			}
		}
	}
	if len(dirs) > maxFolders+1 {
		return "hand a tool more than " + strconv.Itoa(maxFolders) + " folders, more than the guard reads a relative path in"
	}
	g.prose = true
	for _, s := range strs {
		p := g.asPath(s)
		for _, d := range dirs {
			if !strings.ContainsAny(p, "\n\x00") && len(p) <= 4096 {
				if why := g.check(word{text: p, glob: strings.ContainsAny(p, "*?")}, d, how); why != "" {
					return why
				}
			}
			// An option's value (--path=…, file=…) names a path too.
			for _, f := range strings.Fields(s) {
				if _, v, ok := strings.Cut(f, "="); ok && v != "" {
					if why := g.check(word{text: g.asPath(v)}, d, how); why != "" {
						return why
					}
				}
			}
			// A string may be a command for the tool to run: read as
			// Bash's, as prose may be (prose).
			cmds := parse(s, d, g.getenv)
			for i := 0; i < len(cmds); i++ {
				if why := g.command(cmds[i], &cmds); why != "" {
					return why
				}
			}
		}
	}
	return g.text()
}

// maxFolders bounds the folders of one tool's input a relative path of
// it is taken in, besides the project.
const maxFolders = 16

// inputStrings appends to out the strings of a tool's input at any
// depth; a string that is JSON is read as more of the input. ok is false
// past maxStrings.
func inputStrings(v any, out []string, depth int) ([]string, bool) {
	if depth > maxInputDepth {
		return out, true
	}
	ok := true
	switch v := v.(type) {
	case string:
		if t := strings.TrimSpace(v); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			var inner any
			if json.Unmarshal([]byte(t), &inner) == nil {
				return inputStrings(inner, out, depth+1)
			}
		}
		if len(out) >= maxStrings {
			return out, false
		}
		out = append(out, v)
	case []any:
		for _, x := range v {
			if out, ok = inputStrings(x, out, depth+1); !ok {
				break
			}
		}
	case map[string]any:
		for _, x := range v {
			if out, ok = inputStrings(x, out, depth+1); !ok {
				break
			}
		}
	}
	return out, ok
}

// asPath is a string of a tool's input as the path it may name: a file
// address's path (file:///…, file://localhost/… or any host's, its
// %XX escapes decoded), or ~/… in the home folder. The hot program links
// no net package (net/url's reader among them), so the address is taken
// apart here.
func (g *guard) asPath(s string) string {
	if len(s) <= 5 || !strings.EqualFold(s[:5], "file:") {
		return g.home(s)
	}
	rest := s[5:]
	if after, ok := strings.CutPrefix(rest, "//"); ok {
		// file://HOST/PATH: the path starts at the host's end.
		i := strings.IndexByte(after, '/')
		if i < 0 {
			return ""
		}
		rest = after[i:]
	}
	rest, _, _ = strings.Cut(rest, "?")
	rest, _, _ = strings.Cut(rest, "#")
	var b strings.Builder
	for i := 0; i < len(rest); i++ {
		if rest[i] == '%' && i+3 <= len(rest) {
			if c, err := hex.DecodeString(rest[i+1 : i+3]); err == nil {
				b.Write(c)
				i += 2
				continue
			}
		}
		b.WriteByte(rest[i])
	}
	return b.String()
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
