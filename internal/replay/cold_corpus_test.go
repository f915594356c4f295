package replay_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// TestColdCorpus pins the cold re-writes replay counts in the shared
// corpus of 186 real sessions: the count rests on timestamps and cache
// writes alone, not on the forecast, so it holds while the model is
// refitted. The stops do rest on the forecast; they are only checked to
// be a subset of sense: each stop is at a cold prompt whose re-write the
// model priced.
func TestColdCorpus(t *testing.T) {
	dir := filepath.Join(sharedtest.DirOrSkip(t), "..", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus beside the shared transcripts")
	}
	srcs, err := replay.Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := tuning.FromEnv(func(string) string { return "" })
	table, _ := prices.Embedded()
	rep := replay.Run(srcs, replay.Options{
		NewModel: func(path string) replay.Model { return replay.NewPolicyModel(s, table, "", path, nil) },
		Prices:   replay.TablePrices{Table: table},
	})
	c := rep.Totals.Cold
	t.Logf("cold: %d re-writes in %d sessions, %.2f USD; %d stops in %d sessions, saving %.2f USD; %d warm after all",
		c.Rewrites, c.RewriteSessions, c.RewriteUSD, c.Stops, c.StopSessions, c.SavingUSD, c.FalseStops)
	if c.Rewrites != 187 || c.RewriteSessions != 62 {
		t.Errorf("cold re-writes %d in %d sessions, want 187 in 62", c.Rewrites, c.RewriteSessions)
	}
	if c.MedianIdleSeconds == nil || *c.MedianIdleSeconds < 600 || *c.MedianIdleSeconds > 1200 {
		t.Errorf("median idle %v s, want 10 to 20 minutes", c.MedianIdleSeconds)
	}
	for _, sess := range rep.Sessions {
		for _, e := range sess.Cold {
			if e.Stop && (e.SavingUSD < 0.30 || e.IdleSeconds < 300) {
				t.Errorf("%s: a stop below the threshold or inside the TTL: %+v", sess.SessionID, e)
			}
		}
	}
}
