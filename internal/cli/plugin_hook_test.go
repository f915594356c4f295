package cli

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdPluginHook runs the plugin's own hook command for an event, as Claude
// Code would (sh -c, the script's environment): pluginhook EVENT. Its
// output is the script's stdout and stderr, as after exec; what it prints
// on stdout must be one JSON object for that event, as Claude Code parses
// it, or nothing.
func cmdPluginHook(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: pluginhook EVENT")
	}
	wd, err := os.Getwd()
	ts.Check(err)
	data, err := os.ReadFile(filepath.Join(wd, "..", "..", pluginDir, "hooks", "hooks.json"))
	ts.Check(err)
	var f struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	ts.Check(json.Unmarshal(data, &f))
	groups := f.Hooks[args[0]]
	if len(groups) == 0 || len(groups[0].Hooks) == 0 {
		ts.Fatalf("hooks.json has no %s hook", args[0])
	}
	err = ts.Exec("/bin/sh", "-c", groups[0].Hooks[0].Command)
	if (err != nil) != neg {
		ts.Fatalf("pluginhook %s: %v", args[0], err)
	}
	out := ts.ReadFile("stdout")
	if out == "" {
		return
	}
	var got struct {
		SystemMessage string `json:"systemMessage"`
		Specific      struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		ts.Fatalf("pluginhook %s printed what is not one JSON object: %v\n%s", args[0], err, out)
	}
	if got.Specific.Event != args[0] || got.Specific.Context == "" {
		ts.Fatalf("pluginhook %s: hookSpecificOutput is %+v", args[0], got.Specific)
	}
}

// cmdCBPath sets $CB to the full path of the context-budget program the
// script runs, so that a script can run it with PATH emptied.
func cmdCBPath(ts *testscript.TestScript, neg bool, args []string) {
	// testscript's programs live in a folder on the script's PATH.
	p := ""
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, "context-budget")); err == nil && !fi.IsDir() {
			p = filepath.Join(dir, "context-budget")
			break
		}
	}
	if p == "" {
		ts.Fatalf("context-budget is not on the script's PATH")
	}
	ts.Setenv("CB", p)
	ts.Setenv("CBBIN", filepath.Dir(p))
}
