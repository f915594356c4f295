package cli

import "testing"

var statusSeeds = []string{
	`{"session_id":"a","transcript_path":"/t.jsonl","cwd":"/c","workspace":{"current_dir":"/c","project_dir":"/p"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":1,"cache_read_input_tokens":2}}}`,
	`{"session_id":1,"transcript_path":"/t.jsonl","workspace":{"current_dir":"/w"},"context_window":{"context_window_size":"x"}}`,
	`{"context_window":{"context_window_size":"200000","current_usage":{"input_tokens":"5"}}}`,
	`{"context_window":{"context_window_size":1e5,"current_usage":{"input_tokens":null}}}`,
	`{"session\u005fid":"s","cwd":"caf\u00e9","workspace":null,"context_window":null}`,
	`{"cwd":"a","cwd":5,"workspace":{"project_dir":"p","project_dir":"q"},"context_window":{"context_window_size":5,"context_window_size":-1}}`,
	`{"workspace":{"current\u005fdir":"x"}}`, `{"context_window":{"current_usage":{"input\u005ftokens":3}}}`,
	`[1]`, `null`, ``, ` {} `, `{"cwd":"\xff"}`, `{"context_window":{"current_usage":[1]}}`,
}

func checkStatusParse(t *testing.T, data []byte) {
	t.Helper()
	got, ok := parseStatusPayload(data)
	want, wok := parseStatusPayloadSlow(data)
	if got != want || ok != wok {
		t.Fatalf("parseStatusPayload(%q) = %+v, %v; the slow reading gives %+v, %v", data, got, ok, want, wok)
	}
}

// TestStatusParseAgrees: the plain reading of the status line's payload
// gives what encoding/json's gives.
func TestStatusParseAgrees(t *testing.T) {
	for _, s := range statusSeeds {
		checkStatusParse(t, []byte(s))
	}
}

func FuzzStatusParse(f *testing.F) {
	for _, s := range statusSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStatusParse(t, data)
	})
}
