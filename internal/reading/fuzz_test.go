package reading

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// realSeeds returns the lines of the real transcripts no longer than max,
// and runs of consecutive lines of up to max bytes; none when the
// transcripts are absent (the fuzzers then start from their own seeds).
func realSeeds(tb testing.TB, max int) (lines, runs [][]byte) {
	_, files := findTranscripts()
	if len(files) == 0 {
		tb.Log("no real transcripts beside the repository: seeds are the built-in ones only")
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var run []byte
		for _, l := range bytes.SplitAfter(data, []byte("\n")) {
			if len(l) <= max {
				lines = append(lines, bytes.TrimSuffix(l, []byte("\n")))
			}
			if len(run)+len(l) > max {
				if len(run) > 0 {
					runs = append(runs, run)
				}
				run = nil
			}
			if len(l) <= max {
				run = append(run, l...)
			}
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
	}
	return lines, runs
}

// refRecords decodes data the oracle's way: every non-empty line is one
// JSON object, or several written back to back (a spliced line), each
// starting {" as Claude Code writes them and at most 64 on a line, and
// each with the fields the oracle reads of their expected types; a record
// of type assistant says so plainly ("assistant", not escaped), and with
// its keys spelled exactly (exactKeys). ok is false for anything else:
// damaged lines are the edge-case tests' business.
func refRecords(data []byte) (recs []*refRecord, ok bool) {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimLeft(line, " \t\r")) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		n := 0
		for ; dec.More(); n++ {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil || !bytes.HasPrefix(raw, []byte(`{"`)) {
				return nil, false
			}
			r := refLine(raw)
			if r == nil || (r.Type == "assistant" && !bytes.Contains(raw, []byte(`"assistant"`))) || !exactKeys(raw) {
				return nil, false
			}
			recs = append(recs, r)
		}
		if n > 64 || (n > 1 && !bytes.HasPrefix(bytes.TrimLeft(line, " \t\r"), []byte(`{"`))) {
			return nil, false
		}
		if rest := line[dec.InputOffset():]; len(bytes.Trim(rest, " \t\r")) > 0 {
			return nil, false
		}
	}
	return recs, true
}

// refLastOf is the last qualifying record's reading.
func refLastOf(recs []*refRecord) refReading {
	var last refReading
	for _, r := range recs {
		if r.qualifies() {
			last = refOf(r)
		}
	}
	return last
}

// refSeen is the oracle's answer to "does the last response hold a
// tool_use block with this id": any record of that response written after
// the last record of an earlier response holds "id" in its content.
func refSeen(recs []*refRecord, id string) bool {
	needle := []byte(`"` + id + `"`)
	var last string
	found, seen := false, false
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if !r.qualifies() {
			continue
		}
		if found && r.Message.ID != last {
			break
		}
		found, last = true, r.Message.ID
		seen = seen || bytes.Contains(r.Message.Content, needle)
	}
	return seen
}

// FuzzLast runs the tail reader on arbitrary bytes: it never panics, and
// on well-formed lines it agrees with the forward oracle, on the reading
// and on whether the call's tool_use block is there.
func FuzzLast(f *testing.F) {
	// Short runs keep the fuzzer fast; the whole files are
	// TestLastRealTranscripts' business.
	_, runs := realSeeds(f, 6<<10)
	for _, r := range runs {
		f.Add(r, "toolu_01")
	}
	f.Add(lines(resp("m1", 100, 1, "t1"), toolResult(50), resp("m2", 200, 2, "t2"), resp("m2", 200, 3, "t3"), `{"type":"user"}`), "t2")
	f.Add(lines(resp("m1", 100, 1, "t1"), strings.Replace(resp("m2", 200, 2, "t2"), `"isSidechain":false`, `"isSidechain":true`, 1)), "t2")
	f.Add(lines(resp("m1", 100, 1, "t1"), strings.Replace(resp("m2", 0, 0, "t2"), "claude-opus-4-6", "<synthetic>", 1)), "t1")
	f.Add(lines(resp("m1", 350000, 1, "t1"), `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":350000}}`,
		`{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"summary"}}`, resp("m2", 40000, 2, "t2")), "t2")
	f.Add(lines(resp("m1", 100, 1, "t1")+resp("m2", 200, 2, "t2"), `{"type":"assistant","message":{"id":"m3","model":"x"}}`), "t2")
	f.Add([]byte(`{"type":"assistant","message":{"id":"m1","model":"x","content":[{"type":"tool_use","id":"toolu_01"}],"usage":{"input_tokens":5}}}`+"\n"+
		`{"type":"assistant","message":{"id":"m1","model":"x","content":[{"type":"tool_use","id":"toolu_02"}],"usage":{"input_tokens":5,"output_tokens":9}}}`), "toolu_01")
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"usage\":{}}}{\"type\":\"assistant\",\"isSidechain\":true}\n\x00\x00"), "x")
	f.Add([]byte(`{"type":"assistant","message":{"id":"a","model":"m","usage":{"input_tokens":1}}}{"type":"assistant","message":{"id":"b","model":"m","usage":{"input_tokens":2}}}`), "b")
	f.Fuzz(func(t *testing.T, data []byte, id string) {
		r, _, err := Last(bytes.NewReader(data), int64(len(data)), "")
		rs, seen, errs := Last(bytes.NewReader(data), int64(len(data)), id)
		if (err == nil) != (errs == nil) || (err == nil && r.MessageID != rs.MessageID) {
			t.Fatalf("with a tool_use id the response changed: %+v (%v) then %+v (%v)", r, err, rs, errs)
		}
		recs, ok := refRecords(data)
		if !ok {
			return
		}
		if got, want := fromReading(r, err), refLastOf(recs); !sameReading(got, want) {
			t.Fatalf("tail reading %+v (err %v), forward oracle %+v", got, err, want)
		}
		if id != "" && !bytes.ContainsAny([]byte(id), "\"\\\n") && seen != refSeen(recs, id) {
			t.Fatalf("tool_use id %q: tail reader says seen=%v, the oracle %v", id, seen, !seen)
		}
	})
}
