package orientation

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/ledger"
)

// writeBig writes a synthetic session of about size bytes into dir: a main
// transcript shaped like a real one (each response as a text and a
// tool_use record, a tool result of a few kilobytes, progress records, a
// compaction every 2,500 responses) and three subagent files of about 2%
// of it each. It returns the transcript's path.
func writeBig(tb testing.TB, dir string, size int64) string {
	tb.Helper()
	path := filepath.Join(dir, "big.jsonl")
	start := time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC)
	blob := strings.Repeat("x", 6000)
	write := func(name string, limit int64, side bool, prefix string) {
		os.MkdirAll(filepath.Dir(name), 0o755)
		f, err := os.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		var n int64
		emit := func(s string) { w.WriteString(s); w.WriteByte('\n'); n += int64(len(s)) + 1 }
		sc := strconv.FormatBool(side)
		emit(`{"type":"user","isSidechain":` + sc + `,"sessionId":"big","cwd":"/repo","timestamp":"` + start.Format(time.RFC3339Nano) + `","message":{"role":"user","content":"work through the plan in docs/plan.md"}}`)
		for i := 0; n < limit; i++ {
			at := start.Add(time.Duration(i) * 7 * time.Second).Format(time.RFC3339Nano)
			if i > 0 && i%2500 == 0 && !side {
				emit(`{"type":"system","subtype":"compact_boundary","sessionId":"big","timestamp":"` + at + `","compactMetadata":{"trigger":"auto","preTokens":160000}}`)
			}
			ctx := 20_000 + int64(i%2500)*50
			usage := fmt.Sprintf(`"usage":{"input_tokens":3,"cache_creation_input_tokens":400,"cache_read_input_tokens":%d,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":400},"output_tokens":%%d,"service_tier":"standard"}`, ctx)
			id := fmt.Sprintf("msg_%s%07d", prefix, i)
			env := `{"parentUuid":"p","isSidechain":` + sc + `,"userType":"external","cwd":"/repo","sessionId":"big","version":"2.1.332","gitBranch":"main","type":"assistant","timestamp":"` + at + `","message":{"id":"` + id + `","model":"claude-opus-4-6","role":"assistant","stop_reason":null,`
			emit(env + `"content":[{"type":"text","text":"Reading the next file to see how it fits."}],` + fmt.Sprintf(usage, 12) + `}}`)
			tool := `{"type":"tool_use","id":"toolu_` + id + `","name":"Read","input":{"file_path":"/repo/src/file.go"}}`
			if i%40 == 39 {
				tool = `{"type":"tool_use","id":"toolu_` + id + `","name":"Edit","input":{"file_path":"/repo/src/file.go","old_string":"a","new_string":"b"}}`
			}
			emit(env + `"content":[` + tool + `],` + fmt.Sprintf(usage, 180) + `}}`)
			emit(`{"type":"progress","sessionId":"big","timestamp":"` + at + `","data":{"type":"hook_progress","hookEvent":"PostToolUse","command":"context-budget hook"}}`)
			emit(`{"type":"user","isSidechain":` + sc + `,"sessionId":"big","cwd":"/repo","timestamp":"` + at + `","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_` + id + `","content":"` + blob + `"}]},"toolUseResult":{"stdout":"` + blob[:2000] + `"}}`)
		}
		if err := w.Flush(); err != nil {
			tb.Fatal(err)
		}
		f.Close()
	}
	write(path, size, false, "m")
	for k := range 3 {
		write(filepath.Join(dir, "big", "subagents", fmt.Sprintf("agent-a%d.jsonl", k)), size/50, true, fmt.Sprintf("s%d", k))
	}
	return path
}

// TestWriteBig writes the synthetic 100 MB session to $CB_BIG_DIR for
// `make bench`'s process-level measure of `ledger record`; without the
// variable it does nothing.
func TestWriteBig(t *testing.T) {
	dir := os.Getenv("CB_BIG_DIR")
	if dir == "" {
		t.Skip("set CB_BIG_DIR to write the synthetic 100 MB session")
	}
	fmt.Println(writeBig(t, dir, 100<<20))
}

// BenchmarkRecord100MB is `ledger record`'s work on a 100 MB transcript
// with subagents: read, price, measure, write the row.
func BenchmarkRecord100MB(b *testing.B) {
	dir := b.TempDir()
	path := writeBig(b, dir, 100<<20)
	p := pricer(b)
	root := b.TempDir()
	defer reportCPU(b)()
	for b.Loop() {
		s, err := Read(path)
		if err != nil {
			b.Fatal(err)
		}
		row := Row(s, p, "", Options{Finished: true})
		if _, err := ledger.Write(root, &row); err != nil {
			b.Fatal(err)
		}
		if len(row.Compactions) == 0 || !row.Orientation.Measured() {
			b.Fatal("the synthetic session did not measure")
		}
	}
}

// BenchmarkOrientation100MB is the hook's first measure of its own
// orientation on the same transcript: it stops at the first action.
func BenchmarkOrientation100MB(b *testing.B) {
	dir := b.TempDir()
	path := writeBig(b, dir, 100<<20)
	p := pricer(b)
	defer reportCPU(b)()
	for b.Loop() {
		s, err := ReadOrientation(path)
		if err != nil {
			b.Fatal(err)
		}
		if ph := Orientation(s, p, Options{}); !ph.Measured() {
			b.Fatal("not measured")
		}
	}
}

// BenchmarkSearch100MB is the first search of a 100 MB session that never
// acts (only Bash calls, no prompt after the first): paid once per
// session, after which each recompute searches only the new bytes.
func BenchmarkSearch100MB(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	f, _ := os.Create(path)
	w := bufio.NewWriter(f)
	result := strings.Repeat("x", 30<<10)
	for i := 0; i < 3300; i++ {
		fmt.Fprintf(w, `{"type":"assistant","cwd":"/repo","timestamp":"2026-09-01T08:00:00Z","message":{"id":"m%d","model":"claude-opus-4-6","stop_reason":"tool_use","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":3,"cache_read_input_tokens":40000,"output_tokens":50}}}`+"\n", i, i)
		fmt.Fprintf(w, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`+"\n", i, result)
	}
	w.Flush()
	f.Close()
	defer reportCPU(b)()
	for b.Loop() {
		var p progress
		if p.searchAll(path) {
			b.Fatal("acted")
		}
	}
}
