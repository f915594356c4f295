package reading

import (
	"strings"
	"testing"
)

// TestLastTakesTheLaterOfSplicedRecords: when two responses share one
// damaged line, the later one is the reading, as if they had been on two
// lines.
func TestLastTakesTheLaterOfSplicedRecords(t *testing.T) {
	a := `{"type":"assistant","message":{"id":"a","model":"m","usage":{"input_tokens":320000},"content":[{"type":"tool_use","id":"toolu_a"}]}}`
	b := `{"type":"assistant","message":{"id":"b","model":"m","usage":{"input_tokens":420000},"content":[{"type":"tool_use","id":"toolu_b"}]}}`
	tests := []struct {
		name, file, toolUseID string
		want                  int64
		seen                  bool
	}{
		{"two lines", a + "\n" + b + "\n", "", 420000, false},
		{"spliced", a + b + "\n", "", 420000, false},
		{"spliced, waiting for the later", a + b + "\n", "toolu_b", 420000, true},
		{"spliced, waiting for the earlier", a + b + "\n", "toolu_a", 420000, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, seen, err := Last(strings.NewReader(tt.file), int64(len(tt.file)), tt.toolUseID)
			if err != nil || r.Tokens != tt.want || seen != tt.seen {
				t.Errorf("Last = %d, seen %v, %v; want %d, seen %v", r.Tokens, seen, err, tt.want, tt.seen)
			}
		})
	}
}
