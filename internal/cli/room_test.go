package cli

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// driveProgram drives the corpus through the hook program, a process per
// call, instead of the hook's code in the test process. The suite drives
// in process: the decisions are the same code, ten times faster, and the
// program itself is driven over the shared transcripts
// (TestReplayDecidesAsTheHook) and by the scripts.
var driveProgram = flag.Bool("drive-program", false, "drive the corpus through the hook program, not its code in process")

// corpusDrive is the hook driven over the whole corpus once, shared by
// the tests that judge it.
var corpusDrive struct {
	once  sync.Once
	paths []string
	runs  []driven
	// homes are the folds' homes (foldHomes) the sessions were driven in.
	homes []string
}

func drivenCorpus(t *testing.T) ([]string, []driven) {
	t.Helper()
	dir := sharedtest.CorpusOrSkip(t)
	if testing.Short() {
		t.Skip("drives the hook over 186 sessions")
	}
	corpusDrive.once.Do(func() {
		corpusDrive.paths, _ = filepath.Glob(filepath.Join(dir, "*.jsonl"))
		run := inProcessHook
		if *driveProgram {
			run = execHook
		}
		homes := foldHomes(t, filepath.Join(suiteTemp, "corpus-homes"), corpusDrive.paths)
		corpusDrive.homes = homes
		corpusDrive.runs = driveEach(t, run, corpusDrive.paths, func(i int) map[string]string {
			return map[string]string{"HOME": homes[corpusFold(corpusDrive.paths[i])]}
		})
	})
	if len(corpusDrive.runs) == 0 {
		t.Fatal("the corpus drive failed")
	}
	return corpusDrive.paths, corpusDrive.runs
}

// corpusFolds is how many folds the corpus is split into, by session.
const corpusFolds = 5

// corpusFold is a session's fold: a hash of its id, as tools/fit splits
// the corpus.
func corpusFold(path string) int {
	h := fnv.New32a()
	h.Write([]byte(strings.TrimSuffix(filepath.Base(path), ".jsonl")))
	return int(h.Sum32() % corpusFolds)
}

// foldHomes makes, for each fold, a home whose Claude Code projects
// folder holds the other folds' sessions: driven with it, a session's
// hook learns where Claude Code compacts from four folds' compactions,
// as they stood before it (their records' times), and plays the fifth.
// The homes are made under tmp, which must outlast every test that reads
// them.
func foldHomes(t testing.TB, tmp string, paths []string) []string {
	t.Helper()
	homes := make([]string, corpusFolds)
	for k := range homes {
		homes[k] = filepath.Join(tmp, fmt.Sprint(k))
		projects := filepath.Join(homes[k], ".claude", "projects", "corpus")
		if err := os.MkdirAll(projects, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if corpusFold(p) == k {
				continue
			}
			abs, _ := filepath.Abs(p)
			if err := os.Symlink(abs, filepath.Join(projects, filepath.Base(p))); err != nil {
				t.Fatal(err)
			}
		}
	}
	return homes
}

// TestCorpusRoom drives the hook over every corpus session and
// measures, at each automatic compaction, the room the pause left: the
// product's first promise (design §4.1).
func TestCorpusRoom(t *testing.T) {
	paths, runs := drivenCorpus(t)
	var rooms []replay.Room
	calls, learned := 0, 0
	for i, d := range runs {
		calls += d.Calls
		for j, n := range d.Notices {
			if n.Level == "pause" && n.SetBy == lines.Window && strings.Contains(d.Texts[j], "of your sessions") {
				learned++
			}
		}
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
	t.Logf("%d pauses set by the window at a point learned from the other folds' sessions", learned)
	t.Logf("%d sessions, %d hook calls: %d automatic compactions, %d paused, %d (%.0f%%) with ≥ 20k room, median room %d tokens / %.1f responses",
		len(paths), calls, s.Auto, s.Paused, s.Enough, 100*float64(s.Enough)/float64(max(s.Auto, 1)), s.MedianTokens, s.MedianResponses)
	if s.Auto < 40 {
		t.Fatalf("only %d automatic compactions found; the corpus holds 49", s.Auto)
	}
	if s.Paused != s.Auto {
		t.Errorf("%d automatic compactions without a pause in their climb", s.Auto-s.Paused)
	}
	if 100*s.Enough < 95*s.Auto {
		t.Errorf("%d of %d automatic compactions got ≥ 20k of room; want ≥ 95%%", s.Enough, s.Auto)
	}
	if s.MedianTokens > 40_000 {
		t.Errorf("median room %d tokens; want ≤ 40k (a pause wastefully early)", s.MedianTokens)
	}
}
