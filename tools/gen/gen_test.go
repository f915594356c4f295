package gen_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/gen"
)

// wholeFile is an independent reading: every line decoded in order, the
// last main-chain response wins.
func wholeFile(t *testing.T, data []byte) (tokens int64, responses map[string]bool, compactions int) {
	t.Helper()
	responses = map[string]bool{}
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if !json.Valid(line) {
			t.Fatalf("line %d is not valid JSON: %.200s", i+1, line)
		}
		var r transcript.Record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if r.IsResponse() {
			tokens = r.Message.Usage.Context()
			responses[r.Message.ID] = true
		}
		if r.Type == "system" && r.Subtype == "compact_boundary" {
			compactions++
		}
	}
	return tokens, responses, compactions
}

func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  gen.Options
	}{
		{"small", gen.Options{Size: 1 << 20, Seed: 1}},
		{"compacting", gen.Options{Size: 8 << 20, Seed: 2, HugeEvery: 4 << 20}},
		{"1m window", gen.Options{Size: 8 << 20, Seed: 3, Window: 1_000_000, HugeEvery: -1}},
		{"behind huge", gen.Options{Size: 2 << 20, Seed: 4, Tail: gen.TailBehindHuge}},
		{"end below", gen.Options{Size: 2 << 20, Seed: 4, EndBelow: 40_000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			res, err := gen.Write(&buf, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			if res.Bytes != int64(len(data)) {
				t.Errorf("Result.Bytes = %d, wrote %d", res.Bytes, len(data))
			}
			if int64(len(data)) < tc.opt.Size || int64(len(data)) > tc.opt.Size+4<<20 {
				t.Errorf("size %d, want about %d", len(data), tc.opt.Size)
			}
			tokens, responses, compactions := wholeFile(t, data)
			if tokens != res.Reading {
				t.Errorf("whole-file reading %d, Result.Reading %d", tokens, res.Reading)
			}
			if len(responses) != res.Responses {
				t.Errorf("%d distinct response ids, Result.Responses %d", len(responses), res.Responses)
			}
			if compactions != res.Compactions {
				t.Errorf("%d compact_boundary records, Result.Compactions %d", compactions, res.Compactions)
			}
			if tc.opt.EndBelow > 0 && res.Reading >= tc.opt.EndBelow {
				t.Errorf("reading %d, want below %d", res.Reading, tc.opt.EndBelow)
			}
			got, seen, err := reading.Last(bytes.NewReader(data), int64(len(data)), res.ToolUseID)
			if err != nil || !seen || got.Tokens != res.Reading || got.MessageID != res.MessageID {
				t.Errorf("reading.Last = %d %s seen=%v err=%v, want %d %s", got.Tokens, got.MessageID, seen, err, res.Reading, res.MessageID)
			}
		})
	}
}

func TestWriteDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	opt := gen.Options{Size: 512 << 10, Seed: 7}
	gen.Write(&a, opt)
	gen.Write(&b, opt)
	opt.Seed = 8
	gen.Write(&c, opt)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("same options gave different bytes")
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("different seeds gave the same bytes")
	}
}

// TestWriteShape checks that a long transcript holds what it promises:
// compactions on a 200k window with the context staying under the
// compaction point, context past 400k on a 1M window, huge results, and
// records a reader must skip.
func TestWriteShape(t *testing.T) {
	var buf bytes.Buffer
	res, _ := gen.Write(&buf, gen.Options{Size: 16 << 20, Seed: 5, HugeEvery: 6 << 20})
	if res.Compactions == 0 {
		t.Error("no compaction in 16 MB on a 200k window")
	}
	peak, longest, types := survey(buf.Bytes())
	if peak > 167_000+40_000 || peak < 150_000 {
		t.Errorf("peak context %d on a 200k window, want just past ~167k", peak)
	}
	if longest < 3<<20-64<<10 {
		t.Errorf("longest line %d bytes, want a ~3 MB tool result", longest)
	}
	for _, typ := range []string{"progress", "file-history-snapshot", "api-request", "attachment", "cost-state", "queue-operation", "sidechain", "synthetic"} {
		if types[typ] == 0 {
			t.Errorf("no %s record", typ)
		}
	}

	buf.Reset()
	gen.Write(&buf, gen.Options{Size: 8 << 20, Seed: 5, Window: 1_000_000})
	if peak, _, _ := survey(buf.Bytes()); peak < 800_000 {
		t.Errorf("peak context %d on a 1M window, want past 800k", peak)
	}
}

// survey returns the peak main-chain context, the longest line and a count
// of records by type (plus "sidechain" and "synthetic").
func survey(data []byte) (peak int64, longest int, types map[string]int) {
	types = map[string]int{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		longest = max(longest, len(line))
		transcript.Decode(line, func(r *transcript.Record) {
			types[r.Type]++
			if r.IsSidechain {
				types["sidechain"]++
			}
			if r.Message != nil && r.Message.Model == transcript.Synthetic {
				types["synthetic"]++
			}
			if r.IsResponse() {
				peak = max(peak, r.Message.Usage.Context())
			}
		})
	}
	return peak, longest, types
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"1MB", 1 << 20}, {"100mb", 100 << 20}, {"1GB", 1 << 30}, {"4096", 4096}, {"3KB", 3 << 10}} {
		got, err := gen.ParseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
		if back := gen.FormatSize(got); !strings.EqualFold(back, strings.TrimSpace(tc.in)) && tc.in != "4096" {
			t.Errorf("FormatSize(%d) = %q, want %q", got, back, tc.in)
		}
	}
	for _, bad := range []string{"", "MB", "-1MB", "1TB", "x"} {
		if _, err := gen.ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) succeeded", bad)
		}
	}
}

// TestWriteScript checks that a Script's file holds what it asks for:
// each response at its reading, the shapes written before them, spliced
// records sharing a line, and Cuts finding one cut per response.
func TestWriteScript(t *testing.T) {
	rs := gen.Climb(50_000, 10_000, 12)
	for i, before := range []string{"", "compact", "microcompact", "synthetic", "sidechain", "damaged"} {
		rs[i+1].Before = before
	}
	rs[7].Write1h = true
	rs[8].Bare, rs[8].Blocks = true, 1
	rs[9].Spliced, rs[9].Blocks = true, 1
	rs[10].Blocks = 3
	var buf bytes.Buffer
	if err := gen.WriteScript(&buf, gen.Script{ID: "s1", Responses: rs, Seed: 1, Progress: 10}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	var readings []int64
	lastID := ""
	oneHour := false
	for _, line := range bytes.Split(data, []byte("\n")) {
		transcript.Decode(line, func(r *transcript.Record) {
			if r.IsBoundary() {
				lastID = ""
			}
			if !r.IsResponse() {
				return
			}
			if r.Message.ID != lastID {
				readings = append(readings, r.Message.Usage.Context())
			}
			lastID = r.Message.ID
			oneHour = oneHour || r.Message.Usage.Write1h() > 0
		})
	}
	if len(readings) != len(rs) {
		t.Fatalf("%d responses, want %d", len(readings), len(rs))
	}
	for k, r := range rs {
		if readings[k] != r.Reading {
			t.Errorf("response %d reads %d, want %d", k, readings[k], r.Reading)
		}
	}
	if !oneHour {
		t.Error("no 1-hour cache write")
	}
	for _, want := range []string{`"subtype":"compact_boundary"`, `"isCompactSummary":true`, `"subtype":"microcompact_boundary"`,
		`"model":"<synthetic>"`, `"isApiErrorMessage":true`, `"isSidechain":true`, `"type":"agent_progress"`,
		"\x00\x00\x00", "not json at all", `"cut sho{"type":"summary"`, `"name":"Bash"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("no %q in the file", want)
		}
	}
	// The spliced response starts on the bare one's line.
	spliced := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if bytes.Count(line, []byte(`{"parentUuid":`)) == 2 && bytes.Contains(line, []byte(`}{"parentUuid":`)) {
			spliced++
		}
	}
	if spliced != 1 {
		t.Errorf("%d spliced lines, want 1", spliced)
	}
	if cuts := gen.Cuts(data, reading.MaxLine); len(cuts) != len(rs) || cuts[len(cuts)-1] > len(data) {
		t.Errorf("%d cuts, want %d", len(cuts), len(rs))
	}
	got, _, err := reading.Last(bytes.NewReader(data), int64(len(data)), "")
	if err != nil || got.Tokens != rs[len(rs)-1].Reading {
		t.Errorf("reading.Last = %d, %v; want %d", got.Tokens, err, rs[len(rs)-1].Reading)
	}
}
