package orientation

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/muthur/context-budget/tools/sharedtest"
)

// FuzzRead feeds transcript text to the session reader and the row
// builder: nothing may panic, and every response counted must be priced
// or warned about.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","model":"claude-opus-4-6","content":[{"type":"tool_use","name":"Edit","input":{"file_path":"/r/x"}}],"usage":{"input_tokens":1}}}`))
	f.Add([]byte(`{"type":"system","subtype":"compact_boundary","timestamp":"x"}` + "\n" + `{"type":"cost-state","totalCostUSD":-1}`))
	if dir, err := seedDir(); err == nil {
		for _, name := range []string{"short.jsonl", "tool_heavy.jsonl", "subagent.jsonl"} {
			if fh, err := os.Open(filepath.Join(dir, name)); err == nil {
				sc := bufio.NewScanner(fh)
				sc.Buffer(nil, 16<<20)
				for n := 0; n < 40 && sc.Scan(); n++ {
					if len(sc.Bytes()) < 8<<10 {
						f.Add(append([]byte(nil), sc.Bytes()...))
					}
				}
				fh.Close()
			}
		}
	}
	p := pricer(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		os.WriteFile(path, data, 0o644)
		s, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		var pr progress
		pr.searchAll(path)
		if pr.Main.Offset > int64(len(data)) {
			t.Fatalf("searched to %d of %d bytes", pr.Main.Offset, len(data))
		}
		row := Row(s, p, "", Options{Finished: true})
		if row.Total.Responses != int64(len(s.Responses)) {
			t.Fatalf("%d responses, total says %d", len(s.Responses), row.Total.Responses)
		}
		if row.Orientation != nil && row.Orientation.Spend.Responses > row.Total.Responses {
			t.Fatal("orientation spent more responses than the session")
		}
	})
}

func FuzzNormalizePrompt(f *testing.F) {
	f.Add("<command-name>/relay</command-name><command-args>take x</command-args>")
	f.Add("  a\n b  ")
	f.Add(strings.Repeat("é", 300))
	f.Fuzz(func(t *testing.T, in string) {
		out := NormalizePrompt(in)
		if utf8.ValidString(in) && utf8.RuneCountInString(out) > PromptLimit {
			t.Fatalf("%d characters", utf8.RuneCountInString(out))
		}
		if strings.Contains(out, "  ") || strings.ContainsAny(out, "\n\t") {
			t.Fatalf("whitespace not collapsed: %q", out)
		}
	})
}

func seedDir() (string, error) {
	return sharedtest.Dir()
}
