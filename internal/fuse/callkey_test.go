package fuse

import (
	"encoding/json"
	"strings"
	"testing"
)

// sameCall agrees with the canonical Signature: one value spelt twice
// (keys in another order, other spacing) is one call.
func TestSameCallAgreesWithSignature(t *testing.T) {
	big := `{"content":"` + strings.Repeat("x", maxCallKey) + `"}`
	inputs := []string{
		`{"command":"make test","description":"run"}`,
		`{ "description": "run", "command": "make test" }`,
		`{"command":"make tesT","description":"run"}`, // same length, another call
		`{"command":"make test"}`,
		`{"command":"a b","description":"run   it"}`,
		`{"command":"a  b","description":"run  it"}`, // white space inside strings counts
		big,
		big[:len(big)-3] + `y"}`,
	}
	for _, tool := range []string{"Bash"} {
		for _, a := range inputs {
			for _, b := range inputs {
				want := Signature(tool, json.RawMessage(a)) == Signature(tool, json.RawMessage(b))
				if len(a) > maxCallKey || len(b) > maxCallKey {
					want = a == b // a large input is hashed as it came
				}
				if got := sameCall(callKey(tool, json.RawMessage(a)), callKey(tool, json.RawMessage(b))); got != want {
					t.Errorf("sameCall(%.40q, %.40q) = %v, want %v", a, b, got, want)
				}
			}
		}
	}
	if sameCall(callKey("Bash", json.RawMessage(inputs[0])), callKey("Read", json.RawMessage(inputs[0]))) {
		t.Error("two tools with one input are one call")
	}
}

func FuzzSameCall(f *testing.F) {
	f.Add(`{"a":1,"b":"x y"}`, `{ "b": "x y", "a": 1 }`)
	f.Add(`{"a":"\""}`, `{"a":"\\"}`)
	f.Add(`{"a":1.0}`, `{"a":1e0}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > maxCallKey || len(b) > maxCallKey || !json.Valid([]byte(a)) || !json.Valid([]byte(b)) {
			return
		}
		// Two inputs the tool was given are one call exactly when their
		// canonical Signatures are one.
		want := Signature("Bash", json.RawMessage(a)) == Signature("Bash", json.RawMessage(b))
		if got := sameCall(callKey("Bash", json.RawMessage(a)), callKey("Bash", json.RawMessage(b))); got != want {
			t.Fatalf("sameCall(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}
