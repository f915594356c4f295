package guard

import (
	"encoding/json"
	"testing"
)

// TestStatusOnly: the one call open past the cap is the exact status.
func TestStatusOnly(t *testing.T) {
	bash := func(cmd string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return b
	}
	for _, cmd := range []string{
		"context-budget budget", "context-budget budget status", "context-budget-cli budget status",
		"/home/u/go/bin/context-budget budget status --session s1", "context-budget budget --json",
		"context-budget budget status --project '/my dir' --json", "  context-budget   budget  status  ",
		"context-budget budget --session s1 status",
	} {
		if !StatusOnly("Bash", bash(cmd)) {
			t.Errorf("%q: not the status", cmd)
		}
	}
	for _, cmd := range []string{
		"context-budget budget disarm", "context-budget budget status; rm -rf x", "context-budget budget status && ls",
		"context-budget budget status | tee x", "context-budget budget status > x", "context-budget budget status \"$(id)\"",
		"context-budget budget status `id`", "X=1 context-budget budget status", "context-budget budget status\nls",
		"context-budget budget status &", "context-budget budget status --session $(context-budget budget disarm)",
		"(context-budget budget status)", "context-budget budget status status", "context-budget budget status x",
		"context-budget lines", "context-budget budget status --verbose", "context-budget budget status --session=s1",
		"env context-budget budget status", "context-budget budget status < /dev/null", "context-budget budget status # x",
		"ls", "",
	} {
		if StatusOnly("Bash", bash(cmd)) {
			t.Errorf("%q: taken for the status", cmd)
		}
	}
	if StatusOnly("Read", json.RawMessage(`{"command":"context-budget budget status"}`)) {
		t.Errorf("a Read taken for the status")
	}
}
