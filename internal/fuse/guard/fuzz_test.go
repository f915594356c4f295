package guard

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
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
		"\"$CLAUDE_CODE_EXECPATH\" -p x", "{\"file\":\"file://localhost/x%2Dy\"}", "cp \"$CLAUDE_CODE_EXECPATH\" /tmp/cc && /tmp/cc -p x",
		"find ~ -name claude.exe -exec {} -p x \\;", "\"${CLAUDE_CODE_EXECPATH%.exe}.exe\" -p x", "bash -c \"${X:0:1}$Y/${CLAUDE_CODE_EXECPATH##*/}\"",
		"truncate -s0 \"$CLAUDE_CONFIG_DIR\"/projects/*/\"$CLAUDE_CODE_SESSION_ID\".jsonl", "eval \"$A\"\x04\x05'$?'"} {
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

// fuzzDenied fuzzes the guard of world w over commands made of one of
// spellings run one of ways (a format of one %s or %q), with what the
// fuzzer adds after it as a command of its own: each is denied. Each
// spelling is a seed, in a way of its own.
func fuzzDenied(f *testing.F, w guardWorld, spellings, ways []string) {
	for i := range spellings {
		f.Add(uint8(i), uint8(i), "")
	}
	f.Fuzz(func(t *testing.T, si, wi uint8, tail string) {
		if strings.ContainsAny(tail, "#\\'\"`\n$") || !strings.HasPrefix(tail, ";") && !strings.HasPrefix(tail, " &&") && tail != "" {
			return // a tail that is not a command of its own may quote the rest away
		}
		cmd := fmt.Sprintf(ways[int(wi)%len(ways)], spellings[int(si)%len(spellings)]) + tail
		if why := w.bash(cmd); why == "" {
			t.Fatalf("%q was allowed", cmd)
		}
	})
}
