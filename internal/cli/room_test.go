package cli

import (
	"flag"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// driveInProcess runs the hook's code in the test process instead of the
// program: the same decisions, faster, for trying a change.
var driveInProcess = flag.Bool("drive-in-process", false, "drive the hook's code in process, not the program")

// corpusDrive is the hook driven over the whole corpus once, shared by
// the tests that judge it.
var corpusDrive struct {
	once  sync.Once
	paths []string
	runs  []driven
}

func drivenCorpus(t *testing.T) ([]string, []driven) {
	t.Helper()
	dir := sharedtest.CorpusOrSkip(t)
	if testing.Short() {
		t.Skip("drives the hook over 186 sessions")
	}
	corpusDrive.once.Do(func() {
		corpusDrive.paths, _ = filepath.Glob(filepath.Join(dir, "*.jsonl"))
		run := execHook
		if *driveInProcess {
			run = inProcessHook
		}
		corpusDrive.runs = driveAllWith(t, run, corpusDrive.paths, nil)
	})
	if len(corpusDrive.runs) == 0 {
		t.Fatal("the corpus drive failed")
	}
	return corpusDrive.paths, corpusDrive.runs
}

// TestCorpusRoom drives the real hook over every corpus session and
// measures, at each automatic compaction, the room the pause left: the
// product's first promise (design §4.1).
func TestCorpusRoom(t *testing.T) {
	paths, runs := drivenCorpus(t)
	var rooms []replay.Room
	calls := 0
	for i, d := range runs {
		calls += d.Calls
		for _, r := range replay.Rooms(d.Notices, d.Boundaries) {
			if r.Trigger == "auto" && (!r.Enough() || testing.Verbose()) {
				line := ""
				for _, n := range d.Notices {
					if n.Level == "pause" && n.Response == r.PauseResponse {
						line = fmt.Sprintf("line %dk %s", n.Line/1000, n.SetBy)
					}
				}
				t.Logf("%s: compaction at %d, pause %v at %d (response %d, %s), room %d in %d responses",
					filepath.Base(paths[i])[:8], r.PreTokens, r.Paused, r.PauseReading, r.PauseResponse, line, r.Tokens, r.Responses)
			}
			rooms = append(rooms, r)
		}
	}
	s := replay.SummarizeRooms(rooms)
	t.Logf("%d sessions, %d hook calls: %d automatic compactions, %d paused, %d (%.0f%%) with ≥ 20k room, median room %d tokens / %.1f responses",
		len(paths), calls, s.Auto, s.Paused, s.Enough, 100*float64(s.Enough)/float64(max(s.Auto, 1)), s.MedianTokens, s.MedianResponses)
	if s.Auto < 40 {
		t.Fatalf("only %d automatic compactions found; the corpus holds 49", s.Auto)
	}
	if s.Paused != s.Auto {
		t.Errorf("%d automatic compactions without a pause in their climb", s.Auto-s.Paused)
	}
	if 10*s.Enough < 9*s.Auto {
		t.Errorf("%d of %d automatic compactions got ≥ 20k of room; want ≥ 90%%", s.Enough, s.Auto)
	}
	if s.MedianTokens > 45_000 {
		t.Errorf("median room %d tokens; want ≤ 45k (a pause wastefully early)", s.MedianTokens)
	}
}
