package lines

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

// bigTranscript writes a transcript of about size bytes: responses that
// climb 2,500 tokens each, every one followed by a 30 KB tool result (a
// real session's ratio of tool output to responses), and returns its path.
func bigTranscript(b *testing.B, dir string, size int) string {
	b.Helper()
	path := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	result := bytes.Repeat([]byte("x"), 30<<10)
	for i, written := 0, 0; written < size; i++ {
		if buf.Len() > 1<<20 {
			written += buf.Len()
			f.Write(buf.Bytes())
			buf.Reset()
		}
		ctx := 40_000 + 2_500*int64(i%60)
		if i%60 == 0 && i > 0 {
			fmt.Fprintf(&buf, `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":%d}}`+"\n", ctx+150_000)
		}
		fmt.Fprintf(&buf, `{"type":"assistant","message":{"id":"m%d","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"tu%d","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":3,"cache_read_input_tokens":%d,"cache_creation_input_tokens":2500,"output_tokens":50}}}`+"\n", i, i, ctx-2_503)
		fmt.Fprintf(&buf, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu%d","content":"%s"}]}}`+"\n", i, result)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		b.Fatal(err)
	}
	return path
}

func benchCall(b *testing.B, transcript string) *Call {
	root := b.TempDir()
	s := &Call{Dir: state.Dir(root), ID: "bench", Root: root, Transcript: transcript,
		Getenv: func(string) string { return "" }, Reading: 150_000}
	s.Settings, _ = tuning.FromEnv(s.Getenv)
	state.Ensure(s.Dir)
	return s
}

// BenchmarkRecompute is the priced recompute on a 100 MB transcript, the
// history resuming from an offset 1 MB before the end (10k tokens of
// growth is ~40 KB of text; 1 MB leaves room for large tool results).
func BenchmarkRecompute(b *testing.B) {
	path := bigTranscript(b, b.TempDir(), 100<<20)
	s := benchCall(b, path)
	fi, _ := os.Stat(path)
	// The history as it stood about 1 MB before the end.
	var partial forecast.History
	if _, err := partial.UpdateSome(path, fi.Size()-1<<20); err != nil {
		b.Fatal(err)
	}
	stale := Entry{Made: Made{Format: Format, Transcript: path}, Decision: Decision{Lines: Fixed(s.Settings)}}
	runtime.GC()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if err := s.save(&stale, &partial); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, hit, err := DecideCached(s); hit || err != nil {
			b.Fatal(hit, err)
		}
	}
}

// BenchmarkColdPass is a first recompute with no saved history: one pass
// over all of a 100 MB transcript (paid once per session, when the hook
// is installed into a session already that long).
func BenchmarkColdPass(b *testing.B) {
	path := bigTranscript(b, b.TempDir(), 100<<20)
	b.SetBytes(100 << 20)
	for b.Loop() {
		var h forecast.History
		if err := h.Update(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHit is a call that finds its lines in the cache.
func BenchmarkHit(b *testing.B) {
	path := bigTranscript(b, b.TempDir(), 1<<20)
	s := benchCall(b, path)
	if _, _, err := DecideCached(s); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, hit, _ := DecideCached(s); !hit {
			b.Fatal("miss")
		}
	}
}
