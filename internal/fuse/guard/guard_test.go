package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// env is an environment of a few variables.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// guardWorld is a user's home with Claude Code's config folder, a project
// and a session's transcript, laid out as Claude Code lays them out.
type guardWorld struct {
	home, root, transcript string
	e                      env
}

func newGuardWorld(t testing.TB) guardWorld {
	base := t.TempDir()
	w := guardWorld{home: filepath.Join(base, "home"), root: filepath.Join(base, "work", "proj")}
	w.transcript = filepath.Join(w.home, ".claude", "projects", "-work-proj", "sess.jsonl")
	for _, d := range []string{filepath.Join(w.root, ".claude", "costs", "sessions", "2026-12"), filepath.Join(w.root, "src"),
		filepath.Join(w.root, "tmp"), filepath.Join(strings.TrimSuffix(w.transcript, ".jsonl"), "subagents"),
		filepath.Join(w.home, ".claude", "context-budget", "fuse")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(w.transcript, []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(w.root, ".claude", "settings.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(w.home, ".claude", "settings.json"), []byte(`{"hooks":{"PreToolUse":[]}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(w.root, ".claude", "settings.local.json"), []byte(`{"env":{"MUTHUR_CONTEXT_BUDGET_SPEND":"$5"},"model":"opus"}`+"\n"), 0o644)
	w.e = env{"HOME": w.home}
	return w
}

func (w guardWorld) lifts(tool, input string) string {
	return Lifts(Call{Root: w.root, Cwd: w.root, Transcript: w.transcript, StateRoot: filepath.Join(w.home, ".claude", "context-budget"),
		ToolName: tool, ToolInput: json.RawMessage(input), Getenv: w.e.get})
}

func (w guardWorld) bash(cmd string) string {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return w.lifts("Bash", string(in))
}

// TestGuardDenies: each ordinary spelling of a lift, by class, is denied.
func TestGuardDenies(t *testing.T) {
	w := newGuardWorld(t)
	link := filepath.Join(w.root, "cfg")
	if err := os.Symlink(filepath.Join(w.home, ".claude"), link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for class, cmds := range map[string][]string{
		"lifting verbs": {
			"context-budget budget disarm",
			"context-budget budget arm '$50'",
			"context-budget budget reset",
			"context-budget-cli budget disarm",
			"/usr/local/bin/context-budget budget --session sess disarm",
			"~/go/bin/context-budget-cli budget reset --project .",
			"CLAUDE_CODE_SESSION_ID= context-budget budget disarm",
			"env -i PATH=/usr/bin context-budget budget disarm",
			"env -u CLAUDE_CODE_SESSION_ID context-budget budget disarm",
			"timeout 10 context-budget budget disarm",
			"timeout -s KILL 5s context-budget budget reset",
			"nice -n 5 context-budget budget disarm",
			"nohup context-budget budget disarm &",
			"sudo -u me context-budget budget disarm",
			"command context-budget budget disarm",
			"exec context-budget budget disarm",
			"time context-budget budget disarm",
			"bash -c 'context-budget budget disarm'",
			`sh -c "context-budget budget arm '\$99'"`,
			"bash -lc 'cd /tmp && context-budget budget disarm'",
			"eval 'context-budget budget disarm'",
			"echo disarm | xargs context-budget budget",
			"echo budget disarm | xargs context-budget",
			"{ context-budget budget disarm; }",
			"(context-budget budget disarm)",
			"true && context-budget budget disarm",
			"false || context-budget budget disarm",
			"ls; context-budget budget disarm",
			"echo $(context-budget budget reset)",
			"echo `context-budget budget disarm`",
			"context-budget budget status \"$(context-budget budget disarm)\"",
			"$(which context-budget) budget disarm",
			"\"$(command -v context-budget-cli)\" budget disarm",
			"`which context-budget` budget reset",
			"go run ./cmd/context-budget-cli budget disarm",
			"go run github.com/muthur/context-budget/cmd/context-budget@latest budget disarm",
			"c\\ontext-budget budget disarm",
			"'context-budget' 'budget' 'disarm'",
			"context-budget budget dis''arm",
			"context-budget budget $(echo disarm)",
			"watch -n 1 context-budget budget disarm",
			"stdbuf -oL context-budget budget disarm",
			"bash <<EOF\ncontext-budget budget disarm\nEOF",
			"echo 'context-budget budget disarm' | bash",
			"find . -maxdepth 0 -exec context-budget budget disarm \\;",
			"if true; then context-budget budget disarm; fi",
			"for i in 1; do context-budget budget disarm; done",
			"context-budget uninstall --scope user",
			"env context-budget uninstall",
		},
		"new sessions": {
			"context-budget run 'go on'",
			"context-budget-cli run --max-usd 5 'carry on'",
			"claude -p 'carry on'",
			"claude",
			"/usr/local/bin/claude --resume abc",
			"$(which claude) -p x",
			"npx @anthropic-ai/claude-code -p x",
			"nohup claude -p 'go' > out.log 2>&1 &",
			"env -u CLAUDE_CODE_SESSION_ID claude -p x",
			"echo hi | claude -p",
			"context-budget hook < payload.json",
		},
		"the fuse's state": {
			"rm -rf ~/.claude/context-budget",
			"rm -rf $HOME/.claude/context-budget/fuse",
			"rm -rf ${HOME}/.claude/context-budget",
			"rm ~/.claude/context-budget/fuse/x/sess.fuse",
			"rm -f ~/.claude/context-budget/fuse/*/sess.spend",
			"rm -rf ~/.claude/context-budget/fuse/*",
			"rm -rf ~/.claude/cont*",
			"rm -rf ~/.claude/*",
			"cd ~/.claude && rm -rf context-budget",
			"cd ~ && cd .claude && rm -rf context-budget",
			"cd ~/.claude/context-budget && rm -rf fuse",
			"cd ~/.claude/context-budget/fuse && ls | xargs rm -rf",
			"rm -rf ~//.claude/./context-budget",
			"rm -rf ~/.claude/projects/../context-budget",
			"rm -rf cfg/context-budget",
			"rm -rf ./cfg/context-budget/fuse",
			"cd cfg && rm -rf context-budget",
			"echo '{}' > ~/.claude/context-budget/fuse/k/sess.fuse",
			"echo '{}' >> ~/.claude/context-budget/fuse/k/sess.spend",
			"cat x >| ~/.claude/context-budget/fuse/k/sess.fuse",
			"cp /dev/null ~/.claude/context-budget/fuse/k/sess.spend",
			"cp fake.json ~/.claude/context-budget/fuse/k/",
			"mv ~/.claude/context-budget /tmp/x",
			"mv ~/.claude/context-budget ~/.claude/cb.old",
			"truncate -s 0 ~/.claude/context-budget/fuse/k/sess.spend",
			"sed -i 's/5/500/' ~/.claude/context-budget/fuse/k/sess.fuse",
			"chmod 000 ~/.claude/context-budget",
			"chmod -R 000 ~/.claude",
			"find ~/.claude -name '*.spend' -delete",
			"find ~/.claude/context-budget -type f -exec rm {} +",
			"find ~/.claude -name '*.fuse' | xargs rm",
			"touch ~/.claude/context-budget/fuse/k/sess.fuse",
			"ln -sf /dev/null ~/.claude/context-budget/fuse/k/sess.spend",
			"ln -s ~/.claude cfg2",
			"dd if=/dev/zero of=~/.claude/context-budget/fuse/k/sess.spend",
			"tee ~/.claude/context-budget/fuse/k/sess.fuse < x",
			"python3 fix.py ~/.claude/context-budget/fuse/k/sess.fuse",
			"rm -rf ~",
			"rm -rf /",
			"rm -rf " + filepath.Dir(w.home),
		},
		"settings": {
			"echo '{}' > ~/.claude/settings.json",
			"echo '{}' > .claude/settings.json",
			"echo '{}' > .claude/settings.local.json",
			"jq 'del(.env)' .claude/settings.json > x && mv x .claude/settings.json",
			"jq 'del(.hooks)' ~/.claude/settings.json > /tmp/s && cp /tmp/s ~/.claude/settings.json",
			"sed -i 's/5usd/500usd/' .claude/settings.local.json",
			"cd .claude && sed -i 's/x/y/' settings.json",
			"rm .claude/settings.json",
			"rm -rf .claude",
			"git checkout -- .claude/settings.json",
			"git checkout .",
			"git restore .claude",
			"git stash --all",
			"git stash -u",
			"git stash push --include-untracked",
			"git clean -fdx",
			"git clean -fd",
			"git -C src clean -fdx ..",
			"git reset --hard",
			"git rm -r .claude",
			"rm -rf /etc/claude-code",
			"echo x > /etc/claude-code/managed-settings.json",
			"python3 - ~/.claude/settings.json",
		},
		"transcripts": {
			"truncate -s 0 " + w.transcript,
			"echo '{}' > " + w.transcript,
			"sed -i '$d' " + w.transcript,
			"rm " + w.transcript,
			"rm -rf ~/.claude/projects",
			"rm -rf " + strings.TrimSuffix(w.transcript, ".jsonl") + "/subagents",
			"cp /dev/null " + w.transcript,
			"head -n 3 " + w.transcript + " > /tmp/t && mv /tmp/t " + w.transcript,
			"printf '%s' x >> " + w.transcript,
			"cd ~/.claude/projects/-work-proj && truncate -s 0 sess.jsonl",
		},
		"ledger rows": {
			"rm -rf .claude/costs",
			"rm .claude/costs/sessions/2026-12/old.json",
			"touch -d yesterday .claude/costs/sessions/2026-12/old.json",
			"mv .claude/costs/sessions/2026-12/old.json /tmp/",
			"find .claude -name '*.json' -delete",
			"git checkout -- .claude/costs",
			"echo '{}' > .claude/costs/sessions/2026-12/x.json",
		},
		"price files": {
			"echo '' > .claude/context-budget/prices.toml",
			"echo x > ~/.config/context-budget/prices.toml",
			"rm -rf ~/.config/context-budget",
			"cp cheap.toml .claude/context-budget/prices.toml",
		},
	} {
		w.denyAll(t, class, cmds)
	}
}

// denyAll checks that each command of a class is denied.
func (w guardWorld) denyAll(t *testing.T, class string, cmds []string) {
	t.Helper()
	for _, cmd := range cmds {
		if w.bash(cmd) == "" {
			t.Errorf("%s: %q was allowed", class, cmd)
		}
	}
}

// TestGuardDeniesFileTools: a tool that writes naming a path the fuse
// stands on, in any spelling, is denied; reading tools are not.
func TestGuardDeniesFileTools(t *testing.T) {
	w := newGuardWorld(t)
	fuseFile := filepath.Join(w.home, ".claude", "context-budget", "fuse", "k", "sess.fuse")
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	denied := []struct{ tool, input string }{
		{"Write", `{"file_path":` + q(fuseFile) + `,"content":"{}"}`},
		{"Edit", `{"file_path":` + q(fuseFile) + `,"old_string":"5","new_string":"500"}`},
		{"Write", `{"file_path":` + q(w.home+"//.claude/./context-budget/fuse/k/sess.spend") + `,"content":"{}"}`},
		{"Write", `{"file_path":` + q(w.home+"/.claude/projects/../context-budget/x") + `,"content":"{}"}`},
		{"Write", `{"file_path":` + q(filepath.Join(w.root, ".claude", "settings.json")) + `,"content":"{\"env\":{}}"}`},
		{"Edit", `{"file_path":` + q(filepath.Join(w.root, ".claude", "settings.local.json")) + `,"old_string":"$5","new_string":"$500"}`},
		{"MultiEdit", `{"file_path":` + q(filepath.Join(w.home, ".claude", "settings.json")) + `,"edits":[{"old_string":"","new_string":"x"},{"old_string":"{","new_string":"{\"disableAllHooks\":true,"}]}`},
		{"Write", `{"file_path":` + q(w.transcript) + `,"content":""}`},
		{"Write", `{"file_path":".claude/settings.json","content":"{\"hooks\":{}}"}`},
		{"NotebookEdit", `{"notebook_path":` + q(filepath.Join(w.root, ".claude", "costs", "sessions", "2026-12", "x.json")) + `}`},
		{"Write", `{"file_path":` + q(filepath.Join(w.root, ".claude", "context-budget", "prices.toml")) + `,"content":""}`},
		{"mcp__fs__write_file", `{"path":` + q(fuseFile) + `,"content":"{}"}`},
		{"mcp__fs__delete_directory", `{"path":` + q(filepath.Join(w.home, ".claude")) + `}`},
		{"mcp__fs__move_file", `{"source":` + q(fuseFile) + `,"destination":"/tmp/x"}`},
		{"mcp__fs__edit_file", `{"path":"~/.claude/settings.json"}`},
	}
	for _, d := range denied {
		if w.lifts(d.tool, d.input) == "" {
			t.Errorf("%s %s: allowed", d.tool, d.input)
		}
	}
	allowed := []struct{ tool, input string }{
		{"Read", `{"file_path":` + q(fuseFile) + `}`},
		{"Read", `{"file_path":` + q(w.transcript) + `}`},
		{"Grep", `{"pattern":"x","path":` + q(w.home) + `}`},
		{"Write", `{"file_path":` + q(filepath.Join(w.root, "main.go")) + `,"content":"env"}`},
		{"Write", `{"file_path":` + q(filepath.Join(w.root, "docs", "settings.json")) + `,"content":"{}"}`},
		{"Edit", `{"file_path":` + q(filepath.Join(w.root, ".claude", "skills", "x.md")) + `}`},
		{"mcp__fs__list_directory", `{"path":` + q(filepath.Join(w.home, ".claude")) + `}`},
		{"mcp__fs__read_file", `{"path":` + q(fuseFile) + `}`},
		{"mcp__fs__write_file", `{"path":` + q(filepath.Join(w.root, "x.txt")) + `}`},
	}
	for _, d := range allowed {
		if why := w.lifts(d.tool, d.input); why != "" {
			t.Errorf("%s %s: denied: %s", d.tool, d.input, why)
		}
	}
}

// TestGuardAllows: ordinary work, and reading what the fuse stands on,
// pass while a cap is armed.
func TestGuardAllows(t *testing.T) {
	w := newGuardWorld(t)
	for _, cmd := range []string{
		"context-budget budget status",
		"context-budget budget",
		"context-budget budget status --json",
		"context-budget lines",
		"context-budget doctor",
		"context-budget-cli ledger list",
		"go test ./...",
		"go build ./... && go vet ./...",
		"make test 2>&1 | tail -20",
		"cat .claude/settings.json",
		"jq .env .claude/settings.json | head",
		"jq 'del(.hooks)' ~/.claude/settings.json",
		"cat ~/.claude/context-budget/fuse/*/sess.spend",
		"ls -la ~/.claude/context-budget",
		"tail -n 5 " + w.transcript,
		"grep -c usage " + w.transcript,
		"wc -l ~/.claude/projects/-work-proj/*.jsonl",
		"cp " + w.transcript + " /tmp/copy.jsonl",
		"cp .claude/settings.json /tmp/settings.backup",
		"rm -rf build tmp/other",
		"rm -rf tmp",
		"rm -rf tmp/context-budget",
		"rm -f src/*.o",
		"cd src && rm -rf gen",
		"find . -name '*.o' -delete",
		"find src -type f -exec grep -l x {} +",
		"git status && git diff",
		"git checkout main",
		"git checkout -b feature",
		"git stash",
		"git stash pop",
		"git clean -n",
		"git add -A && git commit -m 'Carry on: context-budget budget status shows it'",
		"git log --oneline | head",
		"echo done > notes.txt",
		"mkdir -p build && cp bin/x build/",
		"mv old.txt new.txt",
		"sed -i 's/a/b/' src/main.go",
		"chmod +x scripts/run.sh",
		"touch src/x.go",
		"ln -s src/a.go b.go",
		"curl -o /tmp/x.tar.gz https://example.com/x.tar.gz",
		"claude --version",
		"python3 script.py --out results.json",
		"docker run --rm -v $PWD:/w img make",
		"cat <<EOF > notes.md\ncontext-budget budget disarm is the user's\nEOF",
		"echo 'rm -rf ~/.claude' > README.txt",
		"printf '%s\\n' a b | xargs -n1 echo",
		"ls | xargs wc -l",
		"FOO=1 go test ./...",
		"timeout 60 go test ./...",
		"env GOFLAGS=-count=1 go test ./...",
		"bash -c 'go test ./... && go vet ./...'",
		"",
	} {
		w.allow(t, cmd)
	}
}

// allow checks that a command passes.
func (w guardWorld) allow(t *testing.T, cmd string) {
	t.Helper()
	if why := w.bash(cmd); why != "" {
		t.Errorf("%q: denied: %s", cmd, why)
	}
}
