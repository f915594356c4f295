package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/tuning"
)

// replayFuse holds replay's --spend, --loop and --burn.
type replayFuse struct {
	spend string
	loop  int
	burn  float64
	cap   tuning.Amount
}

func (f *replayFuse) flags(fs *flag.FlagSet) {
	fs.StringVar(&f.spend, "spend", "", "also show where a session cap of `AMOUNT` ('$5', 5usd, 2m) would have warned and halted")
	fs.IntVar(&f.loop, "loop", 0, "also show where `N` identical tool calls in a row would have halted")
	fs.Float64Var(&f.burn, "burn", 0, "also show where a spend of `USD` in 5 minutes would have warned (as "+tuning.EnvBurn+")")
}

// on reports whether the fuse is replayed; parse checks the flags first.
func (f *replayFuse) on() bool { return !f.cap.IsZero() || f.loop > 0 || f.burn > 0 }

func (f *replayFuse) parse(stderr io.Writer) int {
	if f.spend != "" {
		a, err := tuning.ParseAmount(f.spend)
		if err != nil {
			printf(stderr, "context-budget: error: --spend: %v\n", err)
			return 2
		}
		f.cap = a
	}
	if f.loop < 0 || f.loop == 1 {
		fmt.Fprintln(stderr, "context-budget: error: --loop must be 2 or more")
		return 2
	}
	if f.burn < 0 || f.burn > 1e9 || f.burn != f.burn {
		fmt.Fprintln(stderr, "context-budget: error: --burn must be a dollar amount per 5 minutes such as 2.50")
		return 2
	}
	return -1
}

// apply replays the fuse over every session of rep.
func (f *replayFuse) apply(rep *replay.Report, sources []replay.Source, table *prices.Table) {
	if !f.on() {
		return
	}
	paths := map[string][]string{}
	for _, s := range sources {
		paths[s.Path] = s.Subagents
	}
	price := fuse.TablePricer(table)
	var outs []*fuse.Outcome
	for i := range rep.Sessions {
		s := &rep.Sessions[i]
		o := fuse.ReplaySession(s.Path, paths[s.Path], f.cap, f.loop, f.burn, price)
		s.Fuse = &o
		outs = append(outs, &o)
	}
	sum := fuse.Summarize(f.cap, f.loop, f.burn, outs)
	rep.Fuse = &sum
}
