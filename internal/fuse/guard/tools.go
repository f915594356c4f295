package guard

// The tools other than Bash: the paths their input names.

import (
	"encoding/json"
	"slices"
	"strings"
)

// fileKeys are the input fields by which a tool names its paths.
var fileKeys = []string{"file_path", "notebook_path", "path", "source", "destination", "target", "directory"}

// readers are the tools that only read; readVerbs start the names of
// other tools that only read, removeVerbs are in those that remove or
// move.
var (
	readers     = []string{"Read", "Glob", "Grep", "LS", "NotebookRead", "WebFetch", "WebSearch", "TodoWrite", "Task", "Agent"}
	readVerbs   = []string{"read", "list", "get", "search", "find", "view", "stat", "directory_tree", "info"}
	removeVerbs = []string{"delete", "remove", "move", "rename", "rm", "clean"}
)

// toolLifts says how a tool call other than Bash would lift the fuse: a
// tool that writes naming a path within a place, or, by a name that
// removes or moves, above one.
func (g *guard) toolLifts(tool string, input json.RawMessage) string {
	if slices.Contains(readers, tool) {
		return ""
	}
	name := tool
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	name = strings.ToLower(name)
	if slices.ContainsFunc(readVerbs, func(v string) bool { return strings.HasPrefix(name, v) }) {
		return ""
	}
	how := writes
	if slices.ContainsFunc(removeVerbs, func(v string) bool { return strings.Contains(name, v) }) {
		how = removes
	}
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	for _, k := range fileKeys {
		var many []string
		var one string
		if json.Unmarshal(in[k], &one) == nil {
			many = []string{one}
		} else {
			json.Unmarshal(in[k], &many)
		}
		for _, p := range many {
			if why := g.check(word{text: g.home(p)}, g.cwd, how); why != "" {
				return why
			}
		}
	}
	return ""
}
