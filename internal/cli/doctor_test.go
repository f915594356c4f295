package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScanTranscript(t *testing.T) {
	const resp = `{"type":"assistant","message":{"id":"m","model":"claude-opus-4-6","usage":{"input_tokens":1,"cache_read_input_tokens":%s,"cache_creation_input_tokens":0}}}`
	r := func(n string) string { return strings.Replace(resp, "%s", n, 1) }
	tests := []struct {
		name   string
		in     string
		bad    int
		over1M int
		last   int64
		peak   int64
		types  string
	}{
		{"empty", "", 0, 0, 0, 0, ""},
		{"half-written last line is not counted", r("100") + "\n" + `{"type":"assist`, 0, 0, 101, 101, ""},
		{"a complete bad line is", "garbage\n" + r("100") + "\n", 1, 0, 101, 101, ""},
		{"spliced records both count", r("5") + r("7") + "\n", 0, 0, 8, 8, ""},
		{"peak and last differ after a compaction", r("1500000") + "\n" + `{"type":"system","subtype":"compact_boundary"}` + "\n" + r("20000") + "\n", 0, 1, 20001, 1500001, ""},
		{"unknown types with usage are counted", `{"type":"hologram","message":{"usage":{"input_tokens":1}}}` + "\n" + `{"type":"hologram","message":{"usage":{}}}` + "\n", 0, 0, 0, 0, "hologram=2"},
		{"unknown types without usage are not", `{"type":"api-request-blob","blob":"x"}` + "\n" + `{"type":"atis-latch"}` + "\n", 0, 0, 0, 0, ""},
		{"NUL run before a record", "\x00\x00\x00" + r("9") + "\n", 0, 0, 10, 10, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := scanTranscript(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for k, v := range sc.unknown {
				types = append(types, k+"="+string(rune('0'+v)))
			}
			if sc.badLines != tt.bad || sc.over1M != tt.over1M || sc.last != tt.last || sc.peak != tt.peak || strings.Join(types, ",") != tt.types {
				t.Errorf("got bad=%d over1M=%d last=%d peak=%d types=%q; want %d %d %d %d %q",
					sc.badLines, sc.over1M, sc.last, sc.peak, types, tt.bad, tt.over1M, tt.last, tt.peak, tt.types)
			}
		})
	}
}

// FuzzScanTranscript: any bytes scan without error or panic, and the
// counts stay consistent.
func FuzzScanTranscript(f *testing.F) {
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","model":"x","usage":{"input_tokens":1}}}` + "\n"))
	f.Add([]byte("{\"type\":\"user\"}{\"type\":\"summary\"}\n\x00\x00{\"a\":"))
	// Seed with the head of a real transcript when the shared data is
	// there.
	if dir, err := sharedTranscripts(); err == nil {
		if data, err := os.ReadFile(filepath.Join(dir, "short.jsonl")); err == nil {
			f.Add(data[:min(len(data), 64<<10)])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scanTranscript(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		if sc.responses > sc.records || sc.peak < sc.last || sc.badLines < 0 {
			t.Fatalf("inconsistent scan %+v", sc)
		}
	})
}
