package main

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
)

// obs is one eligible point of a session: what the hook knew after the
// response (the pace, the rates, what the shipped estimators said) and
// what carrying on the next slice really cost.
type obs struct {
	Session  string
	Family   string
	Response int
	Reading  int64
	Rates    restart.Rates
	Ev       forecast.Evidence
	Pace     forecast.Pace
	// SinceQ is the design's q (since-boundary); Today the cost model the
	// default rate priced with before the fit.
	SinceQ float64
	Today  restart.Model
	// Actual is what the slice cost, ActualRequests its requests.
	Actual         float64
	ActualRequests int
	ActualParts    replay.Parts
}

// snap is what the probe keeps of each response.
type snap struct {
	family string
	rates  restart.Rates
	pace   forecast.Pace
	sinceQ float64
	today  restart.Model
	ok     bool
}

// probe is a replay.Model that records, after every response, the
// session's pace and rates, so that each of replay's points (the
// responses after which the session went on a slice without a boundary)
// can be re-priced with any prior.
type probe struct {
	s     tuning.Settings
	table *prices.Table
	h     forecast.History
	snaps []snap
	// newest is the latest timestamp seen.
	newest string
}

func (p *probe) Observe(r *transcript.Record, _ []byte) {
	p.h.Add(r)
	if len(r.Timestamp) >= 10 && r.Timestamp > p.newest {
		p.newest = r.Timestamp
	}
}

func (p *probe) Lines(int64) lines.Lines { return lines.Fixed(p.s) }

func (p *probe) Predict(int64) *replay.Prediction { return nil }

func (p *probe) Forecast(reading int64) *replay.Prediction {
	d := lines.Decide(lines.Input{Settings: p.s, Table: p.table, History: &p.h, Reading: reading})
	sn := snap{ok: d.Priced}
	if d.Priced {
		m := d.At(reading)
		sn.family = forecast.Family(p.h.Last.Model)
		sn.rates = m.Rates
		sn.today = m
		sn.sinceQ = p.h.Q()
		sn.pace = p.h.Pace
		sn.pace.Steps = slices.Clone(p.h.Pace.Steps)
	}
	p.snaps = append(p.snaps, sn)
	return &replay.Prediction{}
}

// collect replays the transcripts under paths and returns every eligible
// point with its snapshot.
// The corpus' size and its newest timestamp go in the generated file.
func collect(paths []string, table *prices.Table) (corpus, error) {
	var c corpus
	sources, err := replay.Discover(paths)
	if err != nil {
		return c, err
	}
	s, err := tuning.FromEnv(func(string) string { return "" })
	if err != nil {
		return c, err
	}
	probes := make(map[string]*probe)
	newModel := func(path string) replay.Model {
		p := &probe{s: s, table: table}
		probes[path] = p
		return p
	}
	// One worker: the probes map is written from NewModel.
	rep := replay.Run(sources, replay.Options{Prices: replay.TablePrices{Table: table}, NewModel: newModel, Workers: 1})
	c.sessions = len(rep.Sessions)
	for _, sess := range rep.Sessions {
		p := probes[sess.Path]
		if p == nil {
			continue
		}
		c.newest = max(c.newest, p.newest)
		id := strings.TrimSuffix(filepath.Base(sess.Path), ".jsonl")
		for _, pt := range sess.Points {
			if pt.Response >= len(p.snaps) || !p.snaps[pt.Response].ok || pt.ActualCarryOnUSD <= 0 {
				continue
			}
			sn := p.snaps[pt.Response]
			c.points = append(c.points, obs{Session: id, Family: sn.family, Response: pt.Response, Reading: pt.Reading,
				Rates: sn.rates, Pace: sn.pace, Ev: sn.pace.Evidence(), SinceQ: sn.sinceQ, Today: sn.today,
				Actual: pt.ActualCarryOnUSD, ActualRequests: pt.ActualRequests,
				ActualParts: replay.Parts{Read: pt.ActualReadUSD, Write: pt.ActualWriteUSD, Output: pt.ActualOutputUSD}})
		}
	}
	return c, nil
}

// corpus is what collect gathers.
type corpus struct {
	points   []obs
	sessions int
	newest   string
}
