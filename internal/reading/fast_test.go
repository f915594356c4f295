package reading

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/gen"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// agreeFast checks fastRecord against transcript.Decode on one line:
// where the fast path answers, the slow one gives the same responses.
func agreeFast(t *testing.T, line []byte) (handled bool) {
	t.Helper()
	needle := []byte(`"toolu_01"`)
	slow := decodeSlow(line, needle, nil)
	r, content, resp, ok := fastRecord(line)
	if !ok {
		return false
	}
	var fast []candidate
	if resp {
		fast = append(fast, candidate{r: r, has: containsBytes(content, needle)})
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fast path differs on %q:\nfast %+v\nslow %+v", line, fast, slow)
	}
	// FastResponse, for the spend tally: every response, sidechains
	// included, with the fields its accounting reads.
	var slowAll []transcript.Record
	transcript.Decode(line, func(rec *transcript.Record) {
		if rec.Type == "assistant" && rec.Message != nil && rec.Message.Usage != nil && rec.Message.Model != transcript.Synthetic {
			u := *rec.Message.Usage
			slowAll = append(slowAll, transcript.Record{Type: rec.Type, IsSidechain: rec.IsSidechain, Timestamp: rec.Timestamp,
				Version: rec.Version, RequestedModel: rec.RequestedModel,
				Message: &transcript.Message{ID: rec.Message.ID, Model: rec.Message.Model, Usage: &u}})
		}
	})
	rec, resp, ok := FastResponse(line)
	if !ok {
		t.Fatalf("FastResponse refused %q, which fastRecord read", line)
	}
	var fastAll []transcript.Record
	if resp {
		fastAll = append(fastAll, rec)
	}
	if !reflect.DeepEqual(fastAll, slowAll) {
		t.Fatalf("FastResponse differs on %q:\nfast %+v\nslow %+v", line, fastAll, slowAll)
	}
	return true
}

func containsBytes(b, sub []byte) bool {
	for i := 0; i+len(sub) <= len(b); i++ {
		if string(b[i:i+len(sub)]) == string(sub) {
			return true
		}
	}
	return false
}

var fastSeeds = []string{
	`{"type":"assistant","message":{"id":"m1","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_01"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":100,"cache_read_input_tokens":5000,"output_tokens":7,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":100},"speed":"fast"}},"requestedModel":"claude-opus-4-6[1m]"}`,
	`{"type":"assistant","isSidechain":true,"message":{"id":"m1","model":"x","usage":{}}}`,
	`{"type":"assistant","message":{"id":"m1","model":"<synthetic>","usage":{"input_tokens":1}}}`,
	`{"type":"assistant","message":{"id":"m1","model":"x","usage":null}}`,
	`{"type":"assistant","message":null}`,
	`{"type":"user","message":{"role":"user","content":"\"assistant\""}}`,
	`{"Type":"assistant","message":{"id":"m1","model":"x","usage":{}}}`,
	`{"type":"assistant","message":{"id":"m1","model":"x","usage":{"input_tokens":1.5}}}`,
	`{"type":"assistant","message":{"id":"m1","model":"x","usage":{"input_tokens":"5"}}}`,
	`{"type":"assistant","message":{"id":"m\u0031","model":"x","usage":{}}}`,
	`{"type":"assistant","type":"user","message":{"id":"m1","model":"x","usage":{}}}`,
	`{"type":"assistant","message":{"id":"m1","model":"x","usage":{"input_tokens":1}}}{"type":"assistant"}`,
	`  {"type" : "assistant" , "message" : { "id" : "m1" , "model" : "x" , "usage" : { "output_tokens" : -2 } } }  `,
	`{"type":"assistant","subtype":5,"message":{"id":"m1","model":"x","role":7,"usage":{"input_tokens":9}}}`,
	`{"type":"assistant","message":{"id":"m1","model":"x\xff","usage":{}}}`,
	`{"type":"assistant","message":{"id":"m1","model":"x","usage":{"cache_creation":null,"speed":null}}}`,
	`{"type":"assistant","message":{"id":"m1","model":"x","usage":{"cache_creation":{"ephemeral_1h_input_tokens":99999999999999999999}}}}`,
	`[1,2]`, `null`, `{}`, `{"message":{}}`, `{"type":"assistant","isSidechain":"no","message":{"id":"m1","model":"x","usage":{}}}`,
}

func TestFastRecordAgrees(t *testing.T) {
	handled := 0
	for _, s := range fastSeeds {
		if agreeFast(t, []byte(s)) {
			handled++
		}
	}
	if handled < 8 {
		t.Errorf("the fast path handled only %d of the seeds", handled)
	}
	// Every line of generated transcripts, in both tails.
	for _, tail := range []gen.Tail{gen.TailCall, gen.TailBehindHuge} {
		name := filepath.Join(t.TempDir(), "g.jsonl")
		f, _ := os.Create(name)
		gen.Write(f, gen.Options{Size: 2 << 20, Seed: 7, Tail: tail})
		f.Close()
		checkFile(t, name)
	}
}

// TestFastRecordAgreesReal runs the check on every line of the shared
// real transcripts and corpus.
func TestFastRecordAgreesReal(t *testing.T) {
	dir := sharedtest.DirOrSkip(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join(dir, "..", "corpus", "*.jsonl"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("no transcripts")
	}
	for _, name := range files {
		checkFile(t, name)
	}
}

func checkFile(t *testing.T, name string) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	lines, handled := 0, 0
	for sc.Scan() {
		lines++
		if agreeFast(t, sc.Bytes()) {
			handled++
		}
	}
	if lines > 10 && handled*2 < lines {
		t.Errorf("%s: the fast path handled %d of %d lines", name, handled, lines)
	}
}

func FuzzFastRecord(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		agreeFast(t, line)
	})
}
