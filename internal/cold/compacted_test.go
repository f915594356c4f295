package cold

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/gen"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// compactedSlow is CompactedSince without the filter words: every line of
// the tail decoded. The filtered scan is held to it.
func compactedSlow(f io.ReaderAt, size int64) bool {
	found := false
	reading.ScanBack(f, size, func(line []byte) bool {
		done := false
		transcript.Decode(line, func(r *transcript.Record) {
			switch {
			case r.IsBoundary():
				found, done = true, true
			case r.IsResponse():
				done = true
			}
		})
		return !done
	})
	return found
}

// sameCompacted compares the two scans on data cut at every line end and,
// with mid, in the middle of every line (a record half written).
func sameCompacted(t *testing.T, name string, data []byte, mid bool) (compacted int) {
	t.Helper()
	r := bytes.NewReader(data)
	check := func(size int) {
		got, want := compactedIn(r, int64(size)), compactedSlow(r, int64(size))
		if got != want {
			t.Fatalf("%s cut at %d: compacted %v, decoding every line %v\n%.400s", name, size, got, want,
				data[max(0, size-400):size])
		}
		if got {
			compacted++
		}
	}
	start := 0
	for start < len(data) {
		end := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		if mid {
			check(start + (end-start)/2)
		}
		check(end)
		start = end
	}
	return compacted
}

// TestCompactedSinceAgrees: the filtered scan, which decodes only the
// lines holding a response's or a boundary's word, answers as decoding
// every line does, at
// every cut of generated sessions (compactions, microcompactions,
// subagents' responses, API errors, damage, spliced records), hand-made
// tails, the shared transcripts and the corpus.
func TestCompactedSinceAgrees(t *testing.T) {
	saw := gen.Climb(60_000, 9_000, 60)
	for i := range saw {
		if i%10 == 0 && i > 0 {
			saw[i].Before = []string{"compact", "microcompact"}[i/10%2]
		}
		switch i % 7 {
		case 3:
			saw[i].Before = "synthetic"
		case 5:
			saw[i].Before = "sidechain"
		case 6:
			saw[i].Before = "damaged"
		}
	}
	saw = append(saw, gen.Response{Reading: 20_000, Before: "compact", Bare: true, Blocks: 1},
		gen.Response{Reading: 120_000, Spliced: true, Bare: true, Blocks: 1}, gen.Response{Reading: 155_000, Spliced: true, Blocks: 3})
	var b bytes.Buffer
	if err := gen.WriteScript(&b, gen.Script{ID: "s", Responses: saw, Seed: 11, Progress: 3}); err != nil {
		t.Fatal(err)
	}
	compacted := sameCompacted(t, "generated", b.Bytes(), true)

	resp := `{"type":"assistant","message":{"id":"m1","model":"claude-opus-4-6","usage":{"input_tokens":1,"cache_read_input_tokens":9000}}}`
	bound := `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":300000}}`
	micro := `{"type":"system","subtype":"microcompact_boundary","microcompactMetadata":{"trigger":"auto","preTokens":90000}}`
	side := `{"type":"assistant","isSidechain":true,"message":{"id":"m2","model":"claude-opus-4-6","usage":{"input_tokens":1}}}`
	synthetic := `{"type":"assistant","message":{"id":"m3","model":"<synthetic>","usage":{"input_tokens":0}}}`
	escaped := `{"type":"assistant","message":{"id":"m\u0034","model":"claude-opus-4-6","usage":{"input_tokens":1}}}`
	noUsage := `{"type":"assistant","message":{"id":"m5","model":"claude-opus-4-6"}}`
	words := `{"type":"user","message":{"role":"user","content":"the \"assistant\" wrote compact_boundary\" and _boundary\"\""}}`
	progress := `{"type":"progress","data":{"message":{"type":"assistant","message":{"id":"m6","model":"claude-opus-4-6","usage":{"input_tokens":1}}}}}`
	for i, tail := range []string{
		resp + "\n" + bound + "\n",
		resp + "\n" + micro + "\n" + `{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"summary"}}` + "\n",
		bound + "\n" + resp + "\n",
		bound + "\n" + side + "\n" + synthetic + "\n" + noUsage + "\n",
		bound + "\n" + escaped + "\n",
		bound + "\n" + words + "\n" + progress + "\n",
		resp + bound + "\n",
		bound + resp + "\n",
		resp + "\n" + bound + "\x00\x00" + resp[:40] + "\n",
		bound + "\n" + `{"type":"assistant","message":{"id":"m7","model":"claude-opus-4-6","usage":{"input_tokens":"1"}}}` + "\n",
		bound + "\n" + `{"type":"assistant","message":{"id":"m8","model":"claude-opus-4-6","usage":null}}` + "\n",
		bound + "\n" + `{"type":"assistant","message":null}` + "\n",
		bound + "\n" + `{"type":"assistant","Message":{"id":"m9","model":"claude-opus-4-6","usage":{"input_tokens":1}}}` + "\n",
	} {
		compacted += sameCompacted(t, "tail "+string(rune('a'+i)), []byte(tail), true)
	}

	var files []string
	if dir, err := sharedtest.Dir(); err == nil {
		more, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		files = append(files, more...)
	}
	if dir, err := sharedtest.CorpusDir(); err == nil && !testing.Short() {
		more, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		files = append(files, more...)
	}
	if len(files) == 0 {
		t.Log("no real transcripts beside the repository: generated ones only")
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		compacted += sameCompacted(t, filepath.Base(p), data, false)
	}
	if compacted < 20 {
		t.Errorf("only %d cuts follow a compaction: the comparison proves little", compacted)
	}
}
