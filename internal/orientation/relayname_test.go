package orientation

import (
	"testing"

	"github.com/muthur/context-budget/ledger"
)

// TestRelayByPluginName: a session opened with the plugin's relay skill
// (/context-budget:relay take …, as the model's skill list names it) is a
// relayed session as much as one opened with /relay take.
func TestRelayByPluginName(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		want   bool
	}{
		{"<command-name>/context-budget:relay</command-name>\n<command-message>context-budget:relay</command-message>\n<command-args>take main</command-args>", true},
		{"<command-name>context-budget:relay</command-name><command-args>take feat/x</command-args>", true},
		{"<command-name>/relay</command-name><command-args>take main</command-args>", true},
		{"/context-budget:relay take", true},
		{"/context-budget:relay", false},
		{"/context-budget:relaytake main", false},
		{"/other-plugin:relay take main", false},
	} {
		p := NormalizePrompt(tc.prompt)
		if got := ledger.IsRelay(p); got != tc.want {
			t.Errorf("IsRelay(NormalizePrompt(%q)) = %v (%q), want %v", tc.prompt, got, p, tc.want)
		}
		s := &Session{OpeningPrompt: p}
		if Relayed(s) != tc.want {
			t.Errorf("Relayed(%q) = %v, want %v", p, !tc.want, tc.want)
		}
	}
}
