package cli

import (
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/tuning"
)

// TestCorpusVerdicts drives the hook over every corpus session, each
// learning from the other folds as TestCorpusRoom's drive does, under
// each policy, and holds every pause to its verdict (design §4.2). Under
// relay (the default) every pause tells the agent to relay, and its one
// figure is against the real alternative: letting Claude Code compact
// where the decision's compaction point lies within the next 100k tokens,
// else carrying on. Under cheapest a pause tells the agent to relay iff
// its choice is relay, which it is iff relaying saves anything against
// that alternative. Replay gives each pause the same verdict. It logs the
// share of pauses whose choice under cheapest is to let Claude Code
// compact.
func TestCorpusVerdicts(t *testing.T) {
	paths, runs := drivenCorpus(t)
	against := map[string]int{}
	pauses, costlier := 0, 0
	for i, p := range paths {
		s := replaySession(t, p, nil, corpusDrive.homes[corpusFold(p)])
		for _, v := range sameVerdicts(t, p, runs[i], s) {
			against[v.Against]++
			if v.NetUSD < 0 {
				costlier++
			}
		}
		for j, n := range runs[i].Notices {
			v := verdictOf(runs[i].Texts[j])
			if n.Level != "pause" {
				continue
			}
			pauses++
			if !v.Relays || (v.Priced && v.Choice != lines.ChoiceRelay) {
				t.Errorf("%s pause@%d under relay: %+v, want the agent told to relay", filepath.Base(p), n.Response, v)
			}
			if !v.Priced {
				continue
			}
			point := s.CompactPoints[n.Response]
			want := lines.ChoiceCarryOn
			if point > 0 && n.Reading+restart.Slice > point {
				want = lines.ChoiceCompact
			}
			if v.Against != want {
				t.Errorf("%s pause@%d at %d, the point at %d: the figure is against %q, want %q", filepath.Base(p), n.Response, n.Reading, point, v.Against, want)
			}
		}
	}
	t.Logf("under relay: %d pauses, %d priced, against letting Claude Code compact at %d, carrying on at %d; relaying costs more at %d",
		pauses, against[lines.ChoiceCompact]+against[lines.ChoiceCarryOn], against[lines.ChoiceCompact], against[lines.ChoiceCarryOn], costlier)

	// The second drive, under cheapest, runs the hook's code in process
	// as the first does (drivenCorpus).
	env := map[string]string{tuning.EnvPrefer: tuning.PreferCheapest}
	homes := foldHomes(t, t.TempDir(), paths)
	cheap := driveEach(t, inProcessHook, paths, func(i int) map[string]string {
		return map[string]string{"HOME": homes[corpusFold(paths[i])], tuning.EnvPrefer: tuning.PreferCheapest}
	})
	choices := map[string]int{}
	pauses, told := 0, 0
	for i, p := range paths {
		s := replaySession(t, p, env, homes[corpusFold(p)])
		sameNotices(t, p, cheap[i].Notices, s.Notices)
		sameVerdicts(t, p, cheap[i], s)
		for _, rp := range s.Pauses {
			pauses++
			if rp.NetUSD == nil {
				continue
			}
			choices[rp.Choice]++
			if (rp.Choice == lines.ChoiceRelay) != (*rp.NetUSD >= 0) {
				t.Errorf("%s pause@%d under cheapest: %s with relaying's net %v", filepath.Base(p), rp.Response, rp.Choice, *rp.NetUSD)
			}
		}
		for j, n := range cheap[i].Notices {
			if n.Level != "pause" {
				continue
			}
			v := verdictOf(cheap[i].Texts[j])
			if v.Relays {
				told++
			}
			if v.Priced && v.Relays != (v.Choice == lines.ChoiceRelay) {
				t.Errorf("%s pause@%d under cheapest: told to relay %v, choice %q", filepath.Base(p), n.Response, v.Relays, v.Choice)
			}
		}
	}
	priced := choices[lines.ChoiceRelay] + choices[lines.ChoiceCompact] + choices[lines.ChoiceCarryOn]
	t.Logf("under cheapest: %d pauses, %d priced: relay at %d, compact at %d (%.0f%%), carry on at %d; %d told to relay",
		pauses, priced, choices[lines.ChoiceRelay], choices[lines.ChoiceCompact],
		100*float64(choices[lines.ChoiceCompact])/float64(max(priced, 1)), choices[lines.ChoiceCarryOn], told)
	if priced < 50 {
		t.Errorf("only %d priced pauses under cheapest; the check proves little", priced)
	}
}
