package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardByWhatTheStateIs: the attacks of issue 40's round, by class,
// are denied, and the ordinary work beside them passes.
func TestGuardByWhatTheStateIs(t *testing.T) {
	w := newGuardWorld(t)
	fuse := "~/.claude/context-budget/fuse"
	for class, cmds := range map[string][]string{
		"hard links": {
			"cp -al " + fuse + " k && echo '{\"set\":true}' > k/*/sess.fuse",
			"cp -l " + fuse + "/x/sess.spend t && sed -i s/9/0/ t",
			"cp --link ~/.claude/settings.json s.json",
			"cp -lR ~/.claude keep",
			"ln " + fuse + "/x/sess.spend mine",
			"link " + fuse + "/x/sess.fuse mine",
			"rsync -a --link-dest=" + fuse + " src/ dst/",
			"rsync -a --link-dest " + fuse + " src/ dst/",
			"find ~/.claude/context-budget | cpio -pdl /tmp/x",
			"find ~/.claude | cpio -p --link /tmp/x",
			"pax -rwl ~/.claude/context-budget /tmp/x",
			"cp -s " + fuse + "/x/sess.spend sym && echo x > sym",
			"cp --symbolic-link ~/.claude/settings.json s.json",
		},
		"detached or hidden from the CLI": {
			"nohup make build > log 2>&1 &",
			"setsid sleep 1",
			"sleep 100 & disown",
			"script -qc 'make' /dev/null",
			"tmux new-session -d 'context-budget budget disarm'",
			"tmux new -d make",
			"tmux send-keys -t 0 'context-budget budget disarm' Enter",
			"screen -dmS x make",
			"echo make | at now",
			"systemd-run --user make",
			"prlimit --nofile=1024 make",
			"setpriv --reuid=1000 make",
			"unshare -r make",
			"fakeroot make",
			"nsenter -t 1 -m make",
			"dbus-run-session -- make",
			"python3 -c \"import os,pty; os.fork() and os._exit(0); os.setsid(); pty.spawn(['./lift.sh'])\"",
			"python3 -c \"import subprocess; subprocess.Popen(['./lift.sh'], start_new_session=True)\"",
			"node -e \"require('child_process').spawn('./lift.sh', [], {detached: true}).unref()\"",
			"perl -MPOSIX -e 'fork and exit; POSIX::setsid(); exec \"./lift.sh\"'",
			"nice setsid make",
			"env -u CLAUDE_CODE_SESSION_ID -u CLAUDE_CODE_CHILD_SESSION make -f - <<EOF\nall:\n\ttrue\nEOF",
			"env --unset=CLAUDE_CODE_SESSION_ID sqlite3 x '.system true'",
			"env -uCLAUDECODE vim -es -c '!true' -c q",
			"CLAUDE_CODE_SESSION_ID= CLAUDE_CODE_CHILD_SESSION= make",
			"unset CLAUDE_CODE_SESSION_ID; make",
			"export CLAUDE_CODE_CHILD_SESSION=",
			"export -n CLAUDECODE",
		},
		"nested sessions": {
			"npx claude -p go",
			"npx -y claude -p go",
			"~/.local/share/claude/versions/2.1.332 -p go",
			"/opt/node_modules/@anthropic-ai/claude-code/bin/claude.exe -p go",
			"node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js -p go",
			"node $(which claude) -p go",
			"CLAUDE_CONFIG_DIR=/tmp/other claude -p go",
			"env CLAUDE_CONFIG_DIR=/tmp/other claude -p go",
			"python3 -c \"import subprocess; subprocess.run(['claude', '-p', 'go'])\"",
			"node -e \"require('child_process').execSync('claude -p go')\"",
		},
		"code that names the state": {
			"python3 -c \"import os; os.remove(os.environ['HOME'] + '/.claude/context-budget/fuse/k/sess.fuse')\"",
			"python3 -c \"import os; os.remove(os.path.join(os.environ['HOME'], '.claude', 'context-budget', 'fuse', 'k', 'sess.spend'))\"",
			"python3 -c \"import os; open(os.getenv('HOME') + '/.claude/settings.json', 'w')\"",
			"python3 -c \"import os,shutil; shutil.rmtree(os.path.expanduser('~/.claude/context-budget'))\"",
			"python3 -c \"from pathlib import Path; (Path.home() / '.claude' / 'settings.json').write_text('{}')\"",
			"python3 -c \"import os; p=f\\\"{os.environ['HOME']}/.claude/settings.json\\\"; open(p,'w')\"",
			"python3 -c \"import glob,os; [os.remove(f) for f in glob.glob(os.path.expanduser('~/.claude/*/fuse/*/*'))]\"",
			"python3 -c \"open('.claude/settings.local.json', 'w').write('{}')\"",
			"python3 -c \"import os; os.remove(os.path.join('.claude', 'settings.json'))\"",
			"node -e \"require('fs').writeFileSync(process.env.HOME + '/.claude/settings.json', '{}')\"",
			"node -e \"const p=require('path'),os=require('os'); require('fs').rmSync(p.join(os.homedir(), '.claude', 'context-budget'), {recursive: true})\"",
			"ruby -e 'File.write(File.join(Dir.home, \".claude\", \"settings.json\"), \"{}\")'",
			"perl -e 'unlink \"$ENV{HOME}/.claude/context-budget/fuse/k/sess.fuse\"'",
			"node -e \"const fs=require('fs');const h=require('os').homedir();fs.rmSync(h+'/.claude/context-budget',{recursive:true})\"",
			"python3 -c \"import os; h=os.path.expanduser('~'); os.remove(os.path.join(h, '.claude/settings.json'))\"",
			"d=\"$HOME/.claude\"; python3 -c \"import sys,shutil; shutil.rmtree(sys.argv[1]+'/context-budget')\" \"$d\"",
			"python3 fix.py ~/.claude/context-budget",
			"cd ~/.claude && python3 -c \"import shutil; shutil.rmtree('context-budget')\"",
			"cd ~/.claude/context-budget && python3 -c \"import shutil; shutil.rmtree('fuse')\"",
			"python3 -c \"import os; os.system('rm -rf ~/.claude/context-budget')\"",
			"rm -rf ~/.c*/context-budget",
			"rm -f ~/.claude/*/fuse/*/*.fuse",
			"d=~/.claude/context-budget; rm -rf $d",
			"export D=$HOME/.claude/context-budget/fuse && rm -rf \"$D\"",
			"for f in ~/.claude/context-budget/fuse/*/*.spend; do : > \"$f\"; done",
			"find ~/.claude -name '*.fuse' | while read f; do rm \"$f\"; done",
			"rm $(find ~/.claude -name '*.spend')",
			"ls -d ~/.claude/context-budget | xargs rm -rf",
		},
	} {
		w.denyAll(t, class, cmds)
	}
	for _, cmd := range []string{
		"cp -a src dst",
		"cp -r build/ out/",
		"rsync -a --delete build/ out/",
		"rsync -al src/ dst/",
		"ln -s ../src/a.go b.go",
		"find . -name '*.o' | xargs rm -f",
		"rm $(find build -name '*.o')",
		"for f in src/*.go; do gofmt -l \"$f\"; done",
		"for f in ~/.claude/context-budget/fuse/*/*; do cat \"$f\"; done",
		"d=build; rm -rf $d",
		"tmux ls",
		"tmux capture-pane -p",
		"screen -ls",
		"env GOFLAGS=-count=1 go test ./...",
		"env -u GOFLAGS go test ./...",
		"claude --version",
		"npm install",
		"npx prettier --write .",
		"node scripts/build.js",
		"python3 -c \"print(open('package.json').read())\"",
		"python3 -c \"import os; print(os.environ['HOME'])\"",
		"python3 -c \"import os; print(os.listdir('.claude/skills'))\"",
		"python3 -c \"import os; print(os.path.expanduser('~/.claude/CLAUDE.md'))\"",
		"python3 script.py --out results.json",
		"python3 -c 'import json,sys; json.dump({\"a\": 1}, open(\"out.json\", \"w\"))'",
		"make -f Makefile build",
		"python3 -c \"import subprocess; subprocess.run(['git', 'status'])\"",
		"python3 -c \"print('HEAD detached at abc')\"",
	} {
		w.allow(t, cmd)
	}
}

// TestGuardEveryToolInput: a tool that is not Claude Code's names a path
// under any key at any depth, a file:// address or a ~ path included;
// Claude Code's own tools are read at their path keys, and their free
// text is not a path.
func TestGuardEveryToolInput(t *testing.T) {
	w := newGuardWorld(t)
	fuseFile := filepath.Join(w.home, ".claude", "context-budget", "fuse", "k", "sess.fuse")
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, d := range []struct{ tool, input string }{
		{"mcp__fs__write_file", `{"file":` + q(fuseFile) + `,"content":"{}"}`},
		{"mcp__fs__write_file", `{"uri":"file://` + fuseFile + `","content":"{}"}`},
		{"mcp__fs__edit", `{"target":{"file":{"name":` + q(fuseFile) + `}}}`},
		{"mcp__fs__batch", `{"ops":[{"op":"write","to":"~/.claude/settings.json"}]}`},
		{"mcp__fs__delete", `{"paths":[` + q(filepath.Join(w.home, ".claude")) + `]}`},
		{"mcp__fs__get_or_create_file", `{"p":` + q(fuseFile) + `}`},
		{"mcp__x__run", `{"cwd":` + q(filepath.Join(w.home, ".claude", "context-budget")) + `}`},
		{"SomeNewTool", `{"where":` + q(w.transcript) + `}`},
		{"NotebookEdit", `{"notebook_path":` + q(w.transcript) + `}`},
	} {
		if w.lifts(d.tool, d.input) == "" {
			t.Errorf("%s %s: allowed", d.tool, d.input)
		}
	}
	for _, d := range []struct{ tool, input string }{
		{"Write", `{"file_path":` + q(filepath.Join(w.root, "notes.md")) + `,"content":` + q("rm -rf "+fuseFile) + `}`},
		{"Edit", `{"file_path":` + q(filepath.Join(w.root, "a.go")) + `,"old_string":` + q(fuseFile) + `,"new_string":"~/.claude"}`},
		{"Agent", `{"prompt":` + q("edit "+fuseFile) + `,"description":"x"}`},
		{"Task", `{"prompt":"rm -rf ~/.claude"}`},
		{"TodoWrite", `{"todos":[{"content":` + q(fuseFile) + `}]}`},
		{"mcp__fs__read_file", `{"path":` + q(fuseFile) + `}`},
		{"mcp__fs__list_directory", `{"path":` + q(filepath.Join(w.home, ".claude")) + `}`},
		{"mcp__fs__write_file", `{"path":` + q(filepath.Join(w.root, "out.txt")) + `,"content":"see ~/.claude/settings.json"}`},
	} {
		if why := w.lifts(d.tool, d.input); why != "" {
			t.Errorf("%s %s: denied: %s", d.tool, d.input, why)
		}
	}
}

// TestGuardSettingsKeys: while armed, an edit of any settings file that
// changes its hooks, whether they run, its plugins or its env is denied;
// its other keys stay free. By Bash, which the guard cannot follow, a
// write to a settings file is denied whole.
func TestGuardSettingsKeys(t *testing.T) {
	w := newGuardWorld(t)
	local := filepath.Join(w.root, ".claude", "settings.local.json")
	user := filepath.Join(w.home, ".claude", "settings.json")
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, d := range []struct{ tool, input string }{
		{"Write", `{"file_path":` + q(local) + `,"content":"{\"model\":\"opus\"}"}`},
		{"Write", `{"file_path":` + q(local) + `,"content":"{\"env\":{\"MUTHUR_CONTEXT_BUDGET_SPEND\":\"$500\"},\"model\":\"opus\"}"}`},
		{"Edit", `{"file_path":` + q(local) + `,"old_string":"$5","new_string":"$500"}`},
		{"Edit", `{"file_path":` + q(local) + `,"old_string":"MUTHUR","new_string":"OFF","replace_all":true}`},
		{"Edit", `{"file_path":` + q(user) + `,"old_string":"\"hooks\"","new_string":"\"hooks_off\""}`},
		{"Edit", `{"file_path":` + q(user) + `,"old_string":"{","new_string":"{\"disableAllHooks\":true,"}`},
		{"Write", `{"file_path":` + q(filepath.Join(w.root, ".claude", "settings.json")) + `,"content":"{\"enabledPlugins\":{\"context-budget@x\":false}}"}`},
		{"Write", `{"file_path":` + q(filepath.Join(w.root, ".claude", "settings.json")) + `,"content":"{ not json"}`},
		{"Bash", `{"command":"echo '{\"model\":\"opus\"}' > .claude/settings.local.json"}`},
	} {
		if w.lifts(d.tool, d.input) == "" {
			t.Errorf("%s %s: allowed", d.tool, d.input)
		}
	}
	for _, d := range []struct{ tool, input string }{
		{"Write", `{"file_path":` + q(local) + `,"content":"{\"env\":{\"MUTHUR_CONTEXT_BUDGET_SPEND\":\"$5\"},\"model\":\"sonnet\",\"permissions\":{\"allow\":[\"Bash(go test:*)\"]}}"}`},
		{"Edit", `{"file_path":` + q(local) + `,"old_string":"opus","new_string":"sonnet"}`},
		{"Edit", `{"file_path":` + q(local) + `,"old_string":"not there","new_string":"x"}`},
		{"Write", `{"file_path":` + q(filepath.Join(w.root, ".claude", "settings.json")) + `,"content":"{\"permissions\":{\"deny\":[]}}"}`},
		{"MultiEdit", `{"file_path":` + q(user) + `,"edits":[{"old_string":"{","new_string":"{\"theme\":\"dark\","}]}`},
	} {
		if why := w.lifts(d.tool, d.input); why != "" {
			t.Errorf("%s %s: denied: %s", d.tool, d.input, why)
		}
	}
	// The file is read where it is: a change only counts against what it
	// holds now.
	if data, _ := os.ReadFile(local); !strings.Contains(string(data), "$5") {
		t.Fatalf("the world's settings.local.json: %s", data)
	}
}
