package fuse

import (
	"encoding/json"
	"testing"
)

// FuzzLifts: the lift guard and the status check read any Bash command
// without a panic, and a command is never both the open status and a
// lift.
func FuzzLifts(f *testing.F) {
	for _, s := range []string{"context-budget budget disarm", "context-budget budget status", "echo $(context-budget budget reset)",
		`a='x;y' "b|c" \; d`, "rm tmp/context-budget/x", "jq '.env' .claude/settings.json", "", "'unterminated", "$("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		lift := Lifts("Bash", in, "/r")
		if IsStatus("Bash", in) && lift != "" {
			t.Fatalf("%q is both status and a lift (%s)", cmd, lift)
		}
		Signature("Bash", in)
		Describe("Bash", in)
	})
}
