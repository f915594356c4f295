package replay_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/tools/gen"
)

// TestFidelity measures the cost model against what sessions really spent
// carrying on 100k tokens (the forecast's points), with the forecast and
// with the design's estimator, on the shared real transcripts and on
// generated ones, and prints the figures (go test -v -run Fidelity). The
// forecast must beat the design's estimator on the real transcripts. The
// generated sessions are paced as the design assumed (40 requests per
// 100k, no cache re-writes, 700 tokens of output a request) and compact
// often, so every point is early in a climb, where the forecast leans on
// its prior fitted on real sessions (near 80 requests per 100k): there the
// design's estimator wins by construction, and the figures are printed
// only. The corpus test of package fit measures the forecast on 186 real
// sessions.
func TestFidelity(t *testing.T) {
	table, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	genDir := t.TempDir()
	for seed := range uint64(3) {
		f, err := os.Create(filepath.Join(genDir, "g"+string(rune('a'+seed))+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gen.Write(f, gen.Options{Size: 8 << 20, Seed: seed + 1}); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	sets := map[string]func(t *testing.T) []string{
		"real": func(t *testing.T) []string {
			real := sharedTranscripts(t)
			return []string{filepath.Join(real, "4d5611e5-241a-462a-8d15-5122611a9569.jsonl"),
				filepath.Join(real, "258c7280-ae70-4798-800f-63464d01a85d.jsonl")}
		},
		"generated": func(*testing.T) []string { return []string{genDir} },
	}
	for _, name := range []string{"real", "generated"} {
		t.Run(name, func(t *testing.T) { fidelity(t, name, sets[name](t), table) })
	}
}

func fidelity(t *testing.T, name string, paths []string, table *prices.Table) {
	{
		errs := map[string]float64{}
		for _, rate := range []string{tuning.RateForecast, tuning.RateSinceBoundary} {
			s, err := tuning.FromEnv(func(k string) string {
				if k == tuning.EnvRate {
					return rate
				}
				return ""
			})
			if err != nil {
				t.Fatal(err)
			}
			sources, err := replay.Discover(paths)
			if err != nil {
				t.Fatal(err)
			}
			rep := replay.Run(sources, replay.Options{Prices: replay.TablePrices{Table: table},
				NewModel: func(path string) replay.Model { return replay.NewPolicyModel(s, table, "", path, nil) }})
			for _, sess := range rep.Sessions {
				if sess.CarryOnMedianAbsError != nil {
					t.Logf("%s %s %s: %d points, median error %.1f%%", name, rate, filepath.Base(sess.Path),
						len(sess.Points), 100**sess.CarryOnMedianAbsError)
				}
			}
			tot := rep.Totals
			if tot.CarryOnMedianAbsError == nil || tot.RequestsMedianAbsError == nil {
				t.Fatalf("%s %s: no points", name, rate)
			}
			t.Logf("%s %s: %d points, carrying-on median error %.1f%%, requests %.1f%%", name, rate,
				tot.Points, 100**tot.CarryOnMedianAbsError, 100**tot.RequestsMedianAbsError)
			errs[rate] = *tot.CarryOnMedianAbsError
		}
		if name == "real" && errs[tuning.RateForecast] >= errs[tuning.RateSinceBoundary] {
			t.Errorf("%s: the forecast (%.3f) does not beat the design's estimator (%.3f)", name,
				errs[tuning.RateForecast], errs[tuning.RateSinceBoundary])
		}
	}
}
