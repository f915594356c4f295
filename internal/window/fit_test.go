package window

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// updateTable rewrites fitted.go from the corpus:
// go test ./internal/window -run TestFittedTable -update-table.
var updateTable = flag.Bool("update-table", false, "rewrite fitted.go from the corpus")

// pinned is what was measured outside the corpus: the pinned CLI's first
// compaction request against the e2e suite's mock came right after a 167k
// reading (e2e/scenarios_test.go, claudeCompactsAtK).
var pinned = Range{From: "2.1.332", To: "2.1.332", Below: Standard - 167_000,
	Measured: "the pinned CLI against the e2e mock: its first compaction request right after a 167k reading"}

// fitSession is what the fit reads of one corpus session.
type fitSession struct {
	id string
	// climbs end at each compaction; the last one at the session's end.
	climbs []fitClimb
	peak   int64
}

type fitClimb struct {
	version  string
	readings []int64 // the readings of responses that made a tool call
	auto     bool
	pre      int64
}

func readCorpus(t *testing.T) []fitSession {
	t.Helper()
	dir := sharedtest.CorpusOrSkip(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	var out []fitSession
	for _, p := range paths {
		data, err := reading.ReadFile(p, 256<<20)
		if err != nil {
			t.Fatal(err)
		}
		s := fitSession{id: strings.TrimSuffix(filepath.Base(p), ".jsonl")}
		var c fitClimb
		lastID := ""
		tool := false
		flushResp := func() {}
		var reading int64
		flushResp = func() {
			if lastID != "" && tool {
				c.readings = append(c.readings, reading)
			}
			lastID, tool = "", false
		}
		r := readingLines(data)
		for _, line := range r {
			transcript.Decode(line, func(rec *transcript.Record) {
				switch {
				case rec.IsResponse():
					if rec.Version != "" {
						c.version = rec.Version
					}
					if rec.Message.ID != lastID || lastID == "" {
						flushResp()
						lastID = rec.Message.ID
						if lastID == "" {
							lastID = "?"
						}
					}
					reading = rec.Message.Usage.Context()
					s.peak = max(s.peak, reading)
					tool = tool || bytes.Contains(rec.Message.Content, []byte(`"tool_use"`))
				case rec.IsBoundary():
					flushResp()
					if rec.Subtype == "compact_boundary" && rec.CompactMetadata != nil {
						if rec.Version != "" {
							c.version = rec.Version
						}
						c.auto, c.pre = rec.CompactMetadata.Trigger == "auto", rec.CompactMetadata.PreTokens
						s.climbs = append(s.climbs, c)
						c = fitClimb{version: c.version}
					}
				}
			})
		}
		flushResp()
		s.climbs = append(s.climbs, c)
		out = append(out, s)
	}
	return out
}

func readingLines(data []byte) [][]byte {
	var out [][]byte
	rd := reading.NewReader(bytes.NewReader(data))
	for {
		line, err := rd.Next()
		if err != nil {
			return out
		}
		out = append(out, bytes.Clone(line))
	}
}

// fit makes the table from sessions: per version, the lowest automatic
// compaction on a 200k window, floored to a thousand; consecutive
// versions within 8k of each other make one range, at its most cautious
// (largest) Below; then the step allowance near the points so found.
func fit(sessions []fitSession) Table {
	type obs struct {
		min          int64
		n            int
		sessionsSeen map[string]bool
	}
	byVersion := map[string]*obs{}
	for _, s := range sessions {
		if s.peak > Standard {
			continue
		}
		for _, c := range s.climbs {
			if !c.auto || c.pre <= 0 {
				continue
			}
			if _, ok := parseVersion(c.version); !ok {
				continue
			}
			o := byVersion[c.version]
			if o == nil {
				o = &obs{min: c.pre, sessionsSeen: map[string]bool{}}
				byVersion[c.version] = o
			}
			o.min = min(o.min, c.pre)
			o.n++
			o.sessionsSeen[s.id] = true
		}
	}
	var versions []string
	for v := range byVersion {
		versions = append(versions, v)
	}
	slices.SortFunc(versions, func(a, b string) int {
		va, _ := parseVersion(a)
		vb, _ := parseVersion(b)
		return slices.Compare(va[:], vb[:])
	})
	var t Table
	var seen map[string]bool
	for _, v := range versions {
		o := byVersion[v]
		below := Standard - o.min/1000*1000
		if n := len(t.Ranges); n > 0 && abs(t.Ranges[n-1].Below-below) <= 8_000 {
			r := &t.Ranges[n-1]
			r.To, r.Below, r.Compactions = v, max(r.Below, below), r.Compactions+o.n
		} else {
			t.Ranges = append(t.Ranges, Range{From: v, To: v, Below: below, Compactions: o.n})
			seen = map[string]bool{}
		}
		for id := range o.sessionsSeen {
			seen[id] = true
		}
		t.Ranges[len(t.Ranges)-1].Sessions = len(seen)
	}
	t.Ranges = append(t.Ranges, pinned)
	for _, r := range t.Ranges {
		t.DefaultBelow = max(t.DefaultBelow, r.Below)
	}
	t.StepAllowance, t.Steps = stepAllowance(sessions, &t)
	return t
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// stepAllowance is the size-biased 90th percentile of the steps between
// consecutive tool calls' readings whose first reading lies within 60k
// under the session's compaction point: the crossing of a line falls in a
// step with odds in proportion to its size, so that is the distribution
// of the step a line is crossed in. Rounded up to 500.
func stepAllowance(sessions []fitSession, t *Table) (int64, int) {
	var steps []int64
	for _, s := range sessions {
		if s.peak > Standard {
			continue
		}
		for _, c := range s.climbs {
			at := Standard - t.below(c.version)
			for i := 1; i < len(c.readings); i++ {
				a, b := c.readings[i-1], c.readings[i]
				if a >= at-60_000 && a < at && b > a {
					steps = append(steps, b-a)
				}
			}
		}
	}
	slices.Sort(steps)
	var total, acc int64
	for _, s := range steps {
		total += s
	}
	for _, s := range steps {
		acc += s
		if 10*acc >= 9*total {
			return (s + 499) / 500 * 500, len(steps)
		}
	}
	return 0, len(steps)
}

// below is the table's Below for a version, else the default.
func (t *Table) below(version string) int64 {
	if r, ok := t.Lookup(version); ok {
		return r.Below
	}
	return t.DefaultBelow
}

// heldOutRoom plays a window pause line (point − EnoughRoom − allowance)
// over the held-out sessions' automatic compactions: how many got
// EnoughRoom, of how many.
func heldOutRoom(sessions []fitSession, t *Table) (enough, all int) {
	for _, s := range sessions {
		if s.peak > Standard {
			continue
		}
		for _, c := range s.climbs {
			if !c.auto {
				continue
			}
			all++
			line := Standard - t.below(c.version) - EnoughRoom - t.StepAllowance
			for _, r := range c.readings {
				if r >= line {
					if c.pre-r >= EnoughRoom {
						enough++
					}
					break
				}
			}
		}
	}
	return enough, all
}

// TestFittedTable fits the table on the corpus and requires fitted.go to
// hold it; and checks, fold by fold (five folds by session), that a table
// fitted without a fold's sessions gives that fold's compactions their
// room.
func TestFittedTable(t *testing.T) {
	sessions := readCorpus(t)
	got := fit(sessions)
	if *updateTable {
		writeFitted(t, got)
	}
	if !equalTables(got, fitted) {
		t.Errorf("fitted.go is stale: run go test ./internal/window -run TestFittedTable -update-table\nfit  %+v\nfile %+v", got, fitted)
	}
	enough, all := 0, 0
	for k := range 5 {
		var train, test []fitSession
		for i, s := range sessions {
			if i%5 == k {
				test = append(test, s)
			} else {
				train = append(train, s)
			}
		}
		ft := fit(train)
		e, a := heldOutRoom(test, &ft)
		t.Logf("fold %d: step allowance %d (%d steps), held out: %d of %d compactions with ≥ 20k room", k, ft.StepAllowance, ft.Steps, e, a)
		enough, all = enough+e, all+a
	}
	t.Logf("held out, all folds: %d of %d (%.0f%%)", enough, all, 100*float64(enough)/float64(max(all, 1)))
	if all < 40 || 100*enough < 88*all {
		t.Errorf("held out: %d of %d automatic compactions with ≥ 20k room; want ≥ 88%%", enough, all)
	}
}

func equalTables(a, b Table) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func writeFitted(t *testing.T, tb Table) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./internal/window -run TestFittedTable -update-table; DO NOT EDIT.\n\n")
	b.WriteString("package window\n\n")
	b.WriteString("// fitted is where Claude Code compacts, fitted on the corpus of real\n// sessions (fit_test.go) and the pinned CLI.\n")
	fmt.Fprintf(&b, "var fitted = Table{\n\tDefaultBelow: %d,\n\tStepAllowance: %d,\n\tSteps: %d,\n\tRanges: []Range{\n", tb.DefaultBelow, tb.StepAllowance, tb.Steps)
	for _, r := range tb.Ranges {
		fmt.Fprintf(&b, "\t\t{From: %q, To: %q, Below: %d, Compactions: %d, Sessions: %d, Measured: %q},\n",
			r.From, r.To, r.Below, r.Compactions, r.Sessions, r.Measured)
	}
	b.WriteString("\t},\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("fitted.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
}
