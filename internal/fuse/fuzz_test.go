package fuse

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

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

// FuzzCallKey: a call's signature and description read any input
// without a panic, and a call is always the same call as itself.
func FuzzCallKey(f *testing.F) {
	for _, s := range []string{`{"command":"make test"}`, `{"file_path":"x","content":"y"}`, "", "{", `{"a":[1,{"b":null}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		in := json.RawMessage(input)
		Signature("Bash", in)
		Describe("Bash", in)
		if k := callKey("Bash", in); !sameCall(k, k) {
			t.Fatalf("%q is not the same call as itself", input)
		}
	})
}
