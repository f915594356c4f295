package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLiftRefused: each rule refuses on its own and says so; the user's
// terminal, with no Claude Code above it, lifts. The origins are given
// in process (testOnlyOrigin's stand-ins).
func TestLiftRefused(t *testing.T) {
	shell := process{pid: 10, exe: "/usr/bin/bash", args: []string{"-bash"}}
	none := func(string) string { return "" }
	for _, c := range []struct {
		name   string
		getenv func(string) string
		o      origin
		want   string // "" lifts
	}{
		{"the user's terminal", none, origin{[]process{shell, {pid: 1, exe: "/sbin/init"}}, true}, ""},
		{"IDE terminal", func(k string) string { return map[string]string{"CLAUDECODE": "1"}[k] }, origin{[]process{shell}, true}, ""},
		{"session variable", func(k string) string { return map[string]string{"CLAUDE_CODE_SESSION_ID": "s1"}[k] }, origin{[]process{shell}, true}, "CLAUDE_CODE_SESSION_ID is set"},
		{"child variable", func(k string) string { return map[string]string{"CLAUDE_CODE_CHILD_SESSION": "1"}[k] }, origin{[]process{shell}, true}, "CLAUDE_CODE_CHILD_SESSION is set"},
		{"native binary", none, origin{[]process{shell, {pid: 7, exe: "/home/u/.local/bin/claude"}}, true}, "process 7: /home/u/.local/bin/claude"},
		{"npm package's binary", none, origin{[]process{{pid: 8, exe: "/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe", args: []string{"claude", "-p", "go"}}}, true}, "process 8: claude -p go"},
		{"versioned binary", none, origin{[]process{{pid: 9, exe: "/home/u/.local/share/claude/versions/2.1.332", args: []string{"2.1.332"}}}, true}, "process 9"},
		{"node running cli.js", none, origin{[]process{shell, {pid: 11, exe: "/usr/bin/node", args: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}}}, true}, "process 11: node"},
		{"npx claude", none, origin{[]process{{pid: 12, exe: "/usr/bin/node", args: []string{"npx", "claude"}}}, true}, "process 12"},
		{"renamed argv", none, origin{[]process{{pid: 13, exe: "/opt/claude-code/bin/claude.exe", args: []string{"worker"}}}, true}, "process 13: worker"},
		{"no terminal", none, origin{[]process{shell}, false}, "without a terminal on standard input"},
		{"detached: no ancestry, a terminal", none, origin{nil, true}, ""},
		{"detached: no ancestry, no terminal", none, origin{nil, false}, "without a terminal"},
		{"a claude in a word, not the program", none, origin{[]process{{pid: 14, exe: "/usr/bin/vim", args: []string{"vim", "claude.md"}}}, true}, ""},
	} {
		got := liftRefused("disarm", c.getenv, c.o)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAncestorsRead: the walk reads this process and those above it
// from the system, each with its program and words.
func TestAncestorsRead(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	ps := ancestors(os.Getpid())
	if len(ps) < 2 || ps[0].pid != os.Getpid() || ps[1].pid != os.Getppid() {
		t.Fatalf("ancestors of %d: %+v", os.Getpid(), ps)
	}
	exe, _ := os.Executable()
	if real, _ := filepath.EvalSymlinks(exe); ps[0].exe != exe && ps[0].exe != real {
		t.Errorf("this process's program: %q, want %q", ps[0].exe, exe)
	}
	if len(ps[0].args) == 0 || ps[0].args[0] != os.Args[0] {
		t.Errorf("this process's words: %q, want %q first", ps[0].args, os.Args[0])
	}
}

// TestLiftRefusedByRealAncestry: the CLI, run as a process under a
// program that is Claude Code by its name or its words, refuses to lift
// with none of Claude Code's variables set: its ancestry is read from the
// system, the nearest Claude Code named. Under another program it still
// refuses here, where standard input is no terminal.
func TestLiftRefusedByRealAncestry(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	sh, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Skip("no /bin/sh:", err)
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CLAUDE") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	env = append(env, testOnlyRunMain+"=1", "HOME="+home)
	cli := "\"$CLI\" budget disarm --session s1 --project " + dir
	for _, c := range []struct {
		name string // the program, a copy of sh, under the test's folder
		args []string
		want string
	}{
		{"bin/claude", []string{"-c", cli}, "descends from Claude Code"},
		{"share/claude/versions/2.1.332", []string{"-c", cli}, "descends from Claude Code"},
		{"bin/node", []string{"-c", cli, filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code", "cli.js")}, "descends from Claude Code"},
		// Refused for want of a terminal, or, when the tests themselves
		// run under Claude Code, for that.
		{"bin/myshell", []string{"-c", cli}, "refused"},
	} {
		prog := filepath.Join(dir, c.name)
		os.MkdirAll(filepath.Dir(prog), 0o755)
		if err := os.WriteFile(prog, sh, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(prog, c.args...)
		cmd.Env = append(env, "CLI="+os.Args[0])
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "budget disarm is refused") || !strings.Contains(string(out), c.want) {
			t.Errorf("under %s: %v\n%s\nwant %q", c.name, err, out, c.want)
		}
	}
}
