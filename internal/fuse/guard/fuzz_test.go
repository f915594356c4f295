package guard

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"
)

// FuzzLifts: the guard and the status check read any Bash command
// without a panic, and a command is never both the open status and a
// lift.
func FuzzLifts(f *testing.F) {
	for _, s := range []string{"context-budget budget disarm", "context-budget budget status", "echo $(context-budget budget reset)",
		`a='x;y' "b|c" \; d`, "rm -rf ~/.claude", "jq '.env' .claude/settings.json", "", "'unterminated", "$(", "cat <<EOF\nx\nEOF",
		"bash -c 'sh -c \"eval x\"'", "`a`$(b)${c}$((1+2))<(d)>(e)", "f() { g; }; (h) | xargs -0 i >> j 2>&1",
		"rm -rf ~/.claude/{a,{b,c}}x{1..3}{", "git -c core.pager='claude -p' log", "parallel ::: 'a' | parallel b ::: c",
		"tar -C x -cf y --remove-files z", "unzip -o a.zip -d ~", "cd \"$(mktemp -d)\"; cd / && rm -rf x",
		"\"$CLAUDE_CODE_EXECPATH\" -p x", "{\"file\":\"file://localhost/x%2Dy\"}"} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, cmd string) {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		c := Call{Root: root, Cwd: root, Transcript: filepath.Join(root, "s.jsonl"), StateRoot: filepath.Join(root, "cfg", "context-budget"),
			ToolName: "Bash", ToolInput: in, Getenv: env{}.get}
		lift := Lifts(c)
		if StatusOnly("Bash", in) && lift != "" {
			t.Fatalf("%q is both status and a lift (%s)", cmd, lift)
		}
		// Another tool's string is read as a path, JSON and a command.
		c.ToolName, c.ToolInput = "mcp__x__run", json.RawMessage(`{"a":[`+string(in)+`,`+strconv.Quote(cmd)+`]}`)
		Lifts(c)
	})
}
