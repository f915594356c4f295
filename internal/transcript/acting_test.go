package transcript

import (
	"encoding/json"
	"testing"
)

func TestActingCalls(t *testing.T) {
	content := json.RawMessage(`[{"type":"text","text":"\"Edit\""},` +
		`{"type":"tool_use","name":"Bash","input":{"command":"x","name":"Edit"}},` +
		`{"type":"tool_use","name":"Edit","input":{"file_path":"/p/a.go"}},` +
		`{"type":"tool_use","name":"NotebookEdit","input":{"notebook_path":"/p/n.ipynb","file_path":"/p/wrong"}},` +
		`{"type":"tool_use","name":"AskUserQuestion","input":{}}]`)
	got := ActingCalls(content)
	want := []ToolUse{{"Edit", "/p/a.go"}, {"NotebookEdit", "/p/n.ipynb"}, {"AskUserQuestion", ""}}
	if len(got) != len(want) {
		t.Fatalf("%+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// A Bash call whose input holds "name":"Edit" does not act (the byte
	// search the pace used before counted it).
	bash := &Message{Content: json.RawMessage(`[{"type":"tool_use","name":"Bash","input":{"name":"Edit"}}]`)}
	if bash.Acts() {
		t.Error("a Bash call acts")
	}
	if !(&Message{StopReason: EndTurn}).Acts() {
		t.Error("the end of turn does not act")
	}
}

func FuzzActingCalls(f *testing.F) {
	f.Add([]byte(`[{"type":"tool_use","name":"Edit","input":{"file_path":"a"}}]`))
	f.Add([]byte(`[{"type":"tool_use","name":"NotebookEdit","input":{"notebook_path":"n"}},{"type":"text","text":"end_turn"}]`))
	f.Add([]byte(`"Write"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		calls := ActingCalls(data)
		if len(calls) > 0 && !MayAct(data) {
			t.Fatalf("calls %+v in content the filter rules out", calls)
		}
		for _, c := range calls {
			if !c.Edits() && !c.Asks() {
				t.Fatalf("%+v does not act", c)
			}
		}
	})
}
