package spend

import (
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

// FuzzUnmarshal: any bytes decode to a tally or an error, and a decoded
// tally encodes to bytes that decode to the same encoding.
func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte(codecHeader + "\ntranscript \"/a b.jsonl\"\nfile \"/a\" 10 99 0\nday \"2026-12-01\" 0.5 100 0 1\nmin 5 0.5 100 0 1\nrecent \"m\" \"2026-12-01\" 5 0.5 100 0 1\n"))
	f.Add([]byte(codecHeader + "\nrate \"m/\" 1 2 3 4 5 0\nunrate \"x/\"\nnote \"k\" \"v\"\ninline 1f ab\n"))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tl, err := Unmarshal(data)
		if err != nil {
			return
		}
		enc := tl.Marshal()
		back, err := Unmarshal(enc)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, enc)
		}
		if again := back.Marshal(); string(again) != string(enc) {
			t.Fatalf("round trip differs:\n%s\n%s", enc, again)
		}
	})
}
