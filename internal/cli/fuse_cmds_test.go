package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/state"
)

// cmdFuse runs the hook, the real program as a process, on one tool call
// and checks what the spend fuse answers:
//
//	fuse allow|deny|halt|stop TOOL ARG...
//
// allow: no deny and the turn goes on; deny: the call is denied (a lift)
// and the turn goes on; halt: denied and the turn ends (continue: false);
// stop: the turn ends (a Stop event). For Bash, ARG is the command line;
// another tool takes key=value pairs for its input, or one ARG that is
// its input as a JSON object. In them @NL@ (a
// newline), @WORK@,
// @HOME@, @T@ (the transcript) and @FUSE@ (the fuse's folder for the
// project) are replaced. The payload's event, session, transcript, cwd,
// agent and tool_use_id come from $FUSE_EVENT (PreToolUse), $FUSE_SESSION
// (s1), $FUSE_TRANSCRIPT ($WORK/t.jsonl), $FUSE_CWD ($WORK), $FUSE_AGENT
// and $FUSE_TOOL_USE_ID; $FUSE_WANT, when set, is a regexp stdout must
// match.
func cmdFuse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: fuse allow|deny|halt|stop TOOL ARG...")
	}
	get := func(k, def string) string {
		if v := ts.Getenv(k); v != "" {
			return v
		}
		return def
	}
	work := ts.Getenv("WORK")
	cwd := get("FUSE_CWD", work)
	transcript := get("FUSE_TRANSCRIPT", filepath.Join(work, "t.jsonl"))
	root := get("CLAUDE_PROJECT_DIR", cwd)
	r := strings.NewReplacer("@NL@", "\n", "@WORK@", work, "@HOME@", ts.Getenv("HOME"), "@T@", transcript,
		"@FUSE@", fuse.Dir(ts.Getenv, root))
	p := map[string]any{"hook_event_name": get("FUSE_EVENT", "PreToolUse"), "session_id": get("FUSE_SESSION", "s1"),
		"transcript_path": transcript, "cwd": cwd, "tool_name": args[1]}
	for k, env := range map[string]string{"agent_id": "FUSE_AGENT", "tool_use_id": "FUSE_TOOL_USE_ID"} {
		if v := ts.Getenv(env); v != "" {
			p[k] = v
		}
	}
	input := map[string]any{}
	switch {
	case args[1] == "Bash":
		input["command"] = r.Replace(strings.Join(args[2:], " "))
	case len(args) == 3 && strings.HasPrefix(args[2], "{"):
		if err := json.Unmarshal([]byte(r.Replace(args[2])), &input); err != nil {
			ts.Fatalf("fuse: the input %s: %v", args[2], err)
		}
	default:
		for _, kv := range args[2:] {
			k, v, _ := strings.Cut(kv, "=")
			input[k] = r.Replace(v)
		}
	}
	p["tool_input"] = input
	data, err := json.Marshal(p)
	ts.Check(err)
	name := filepath.Join(work, ".fuse-payload.json")
	ts.Check(os.WriteFile(name, data, 0o644))
	ts.Check(ts.Exec("/bin/sh", "-c", "exec context-budget hook < '"+name+"'"))
	out := ts.ReadFile("stdout")
	var got struct {
		Continue *bool `json:"continue"`
		Specific struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if out != "" {
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			ts.Fatalf("the hook printed what is not one JSON object: %v\n%s", err, out)
		}
	}
	denied, stopped := got.Specific.Decision == "deny", got.Continue != nil && !*got.Continue
	ok := false
	switch args[0] {
	case "allow":
		ok = !denied && !stopped
	case "deny":
		ok = denied && !stopped
	case "halt":
		ok = denied && stopped
	case "stop":
		ok = stopped
	default:
		ts.Fatalf("fuse: %q is not allow, deny, halt or stop", args[0])
	}
	if !ok {
		ts.Fatalf("fuse %s %s %q: the hook answered %s", args[0], args[1], input, strings.TrimSpace(out))
	}
	if want := ts.Getenv("FUSE_WANT"); want != "" && !regexp.MustCompile(want).MatchString(out) {
		ts.Fatalf("fuse %s %s %q: stdout does not match %q:\n%s", args[0], args[1], input, want, out)
	}
}

// cmdFuseDir sets the variable it names to the fuse's folder for the
// project ($CLAUDE_PROJECT_DIR, else $WORK): fusedir VAR.
func cmdFuseDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fusedir VAR")
	}
	root := ts.Getenv("CLAUDE_PROJECT_DIR")
	if root == "" {
		root = ts.Getenv("WORK")
	}
	ts.Setenv(args[0], fuse.Dir(ts.Getenv, root))
}

// cmdToday sets VAR to today's UTC date (YYYY-MM-DD) and VAR_MONTH to
// its month, for scripts whose files must fall on the day the hook
// counts: today VAR.
func cmdToday(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: today VAR")
	}
	day := time.Now().UTC().Format(time.DateOnly)
	ts.Setenv(args[0], day)
	ts.Setenv(args[0]+"_MONTH", day[:7])
}

// cmdHold takes a lock as another process would and keeps it until the
// script releases it or ends: hold FILE, then release FILE. The lock is
// held before the next command runs, however loaded the machine, so the
// commands after it meet a held lock for as long as the script says.
func cmdHold(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hold FILE")
	}
	name := ts.MkAbs(args[0])
	unlock, err := state.LockBy(name, time.Now().Add(time.Minute))
	ts.Check(err)
	held.Store(name, unlock)
	ts.Defer(func() { release(name) })
}

// cmdRelease releases a lock hold took: release FILE.
func cmdRelease(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: release FILE")
	}
	if !release(ts.MkAbs(args[0])) {
		ts.Fatalf("release %s: not held", args[0])
	}
}

// held maps a lock's file to its unlock, across the scripts that run at
// once (each in a folder of its own).
var held sync.Map

func release(name string) bool {
	unlock, ok := held.LoadAndDelete(name)
	if ok {
		unlock.(func())()
	}
	return ok
}
