package fuse

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLifts: the guard and the status check read any Bash command
// without a panic, and a command is never both the open status and a
// lift.
func FuzzLifts(f *testing.F) {
	for _, s := range []string{"context-budget budget disarm", "context-budget budget status", "echo $(context-budget budget reset)",
		`a='x;y' "b|c" \; d`, "rm -rf ~/.claude", "jq '.env' .claude/settings.json", "", "'unterminated", "$(", "cat <<EOF\nx\nEOF",
		"bash -c 'sh -c \"eval x\"'", "`a`$(b)${c}$((1+2))<(d)>(e)", "f() { g; }; (h) | xargs -0 i >> j 2>&1"} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, cmd string) {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		c := Call{Root: root, Cwd: root, Transcript: filepath.Join(root, "s.jsonl"), ToolName: "Bash", ToolInput: in, Getenv: env{}.get}
		lift := Lifts(c)
		if StatusOnly("Bash", in) && lift != "" {
			t.Fatalf("%q is both status and a lift (%s)", cmd, lift)
		}
		Signature("Bash", in)
		Describe("Bash", in)
	})
}

// FuzzTally: a tally of any bytes, read whole or in two pieces, agrees,
// and never counts a negative spend.
func FuzzTally(f *testing.F) {
	f.Add([]byte(rec("m1", "claude-opus-4-6", 10, 1000, 200, 5, false, ts0)+rec("m1", "claude-opus-4-6", 10, 1000, 200, 80, false, ts0)), 40)
	f.Add([]byte("{\"type\":\"assistant\"\x00\n{}\n"), 3)
	price := pricer(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		name := filepath.Join(dir, "s.jsonl")
		os.WriteFile(name, data, 0o644)
		var whole Tally
		whole.Update([]string{name}, price)
		if cut < 0 || cut > len(data) {
			cut = len(data) / 2
		}
		os.WriteFile(name, data[:cut], 0o644)
		var step Tally
		step.Update([]string{name}, price)
		os.WriteFile(name, data, 0o644)
		step.Update([]string{name}, price)
		a, b := whole.Total(), step.Total()
		if a.Responses < 0 || a.Tokens < 0 || a.Responses != b.Responses || a.Tokens != b.Tokens {
			t.Fatalf("whole %+v, in two pieces %+v", a, b)
		}
	})
}
