package transcript

import (
	"strings"
	"testing"
)

// decodeAll returns the context and output of every response Decode finds
// in line, and the types of all its records.
func decodeAll(line string) (types []string, contexts []int64) {
	Decode([]byte(line), func(r *Record) {
		types = append(types, r.Type)
		if r.IsResponse() {
			contexts = append(contexts, r.Message.Usage.Context())
		}
	})
	return types, contexts
}

const rec = `{"type":"assistant","message":{"id":"m1","model":"claude-opus-4-6","usage":{"input_tokens":1,"cache_read_input_tokens":10,"cache_creation_input_tokens":100,"output_tokens":5}}}`

func TestDecode(t *testing.T) {
	user := `{"type":"user","message":{"role":"user","content":"hi"}}`
	for _, tc := range []struct {
		name, line string
		types      string
		contexts   []int64
	}{
		{"one record", rec, "assistant", []int64{111}},
		{"surrounding space", "  " + rec + "\r", "assistant", []int64{111}},
		{"spliced", user + rec, "user assistant", []int64{111}},
		{"spliced with NULs", "\x00\x00\x00" + rec + "\x00\x00" + user, "assistant user", []int64{111}},
		{"half then whole", rec[:40] + user, "user", nil},
		{"whole then half", rec + rec[:50], "assistant", []int64{111}},
		{"NULs only", strings.Repeat("\x00", 100), "", nil},
		{"empty", "", "", nil},
		{"not an object", `["x",1]`, "", nil},
		{"null", "null", "", nil},
		{"unknown type", `{"type":"cost-state","x":[1,2]}`, "cost-state", nil},
		{"a field nobody reads of another type", strings.Replace(rec, `"type":"assistant"`, `"type":"assistant","timestamp":17,"cwd":["x"]`, 1), "assistant", []int64{111}},
		{"usage of another type", `{"type":"assistant","message":{"id":"m","model":"x","usage":{"input_tokens":"5"}}}`, "", nil},
		{"isSidechain of another type", `{"type":"assistant","isSidechain":"yes","message":{"id":"m","model":"x","usage":{}}}`, "", nil},
		{"type of another type", `{"type":7}`, "", nil},
		{"synthetic", strings.Replace(rec, "claude-opus-4-6", "<synthetic>", 1), "assistant", nil},
		{"sidechain", strings.Replace(rec, `"type":"assistant"`, `"type":"assistant","isSidechain":true`, 1), "assistant", nil},
	} {
		types, contexts := decodeAll(tc.line)
		if got := strings.Join(types, " "); got != tc.types || !equal(contexts, tc.contexts) {
			t.Errorf("%s: types %q, contexts %v; want %q, %v", tc.name, got, contexts, tc.types, tc.contexts)
		}
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		u                 Usage
		context, w5m, w1h int64
	}{
		{Usage{InputTokens: 1, CacheReadInputTokens: 10, CacheCreationInputTokens: 100, OutputTokens: 1000}, 111, 100, 0},
		{Usage{CacheCreationInputTokens: 100, CacheCreation: &CacheCreation{Ephemeral5m: 30, Ephemeral1h: 70}}, 100, 30, 70},
	} {
		if got := tc.u.Context(); got != tc.context {
			t.Errorf("Context() = %d, want %d", got, tc.context)
		}
		if got := tc.u.Write5m(); got != tc.w5m {
			t.Errorf("Write5m() = %d, want %d", got, tc.w5m)
		}
		if got := tc.u.Write1h(); got != tc.w1h {
			t.Errorf("Write1h() = %d, want %d", got, tc.w1h)
		}
	}
}
