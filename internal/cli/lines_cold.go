package cli

import (
	"io"
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/history"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/reading"
)

// coldReport is what `lines` adds when the session's cache is cold
// (design §14): the figures the UserPromptSubmit hook would stop the
// next prompt with.
type coldReport struct {
	IdleSeconds   int64   `json:"idle_seconds"`
	TTL           string  `json:"ttl"`
	Context       int64   `json:"context"`
	Prefix        int64   `json:"prefix"`
	RecacheUSD    float64 `json:"recache_usd"`
	CarryOnUSD    float64 `json:"carry_on_usd"`
	FreshUSD      float64 `json:"fresh_usd"`
	SavingUSD     float64 `json:"saving_usd"`
	ThresholdUSD  float64 `json:"threshold_usd"`
	WouldStop     bool    `json:"would_stop"`
	Reorientation string  `json:"reorientation"`
}

// linesNow is the clock `lines` checks the cache against; tests set it.
var linesNow = time.Now

// coldLines fills rep.Cold when the cache is cold at the moment `lines`
// runs and the session is priced.
func coldLines(rep *linesReport, path string, d *lines.Decision, h *history.History, r reading.Reading, threshold float64) {
	f, isCold, priced := cold.At(d, h, r, linesNow())
	if !isCold || !priced || cold.CompactedSince(path) {
		return
	}
	rep.Cold = &coldReport{IdleSeconds: int64(f.Idle / time.Second), TTL: f.TTL, Context: f.Context, Prefix: f.Prefix,
		RecacheUSD: *dollars(f.RecacheUSD), CarryOnUSD: *dollars(f.CarryOnUSD), FreshUSD: *dollars(f.FreshUSD),
		SavingUSD: *dollars(f.SavingUSD), ThresholdUSD: threshold, WouldStop: f.Pays(threshold),
		Reorientation: f.Reorientation.Words}
}

func printCold(w io.Writer, c *coldReport) {
	if c == nil {
		return
	}
	verb, saving := "saves", c.SavingUSD
	if saving < 0 {
		verb, saving = "costs", -saving
	}
	stop := "the next prompt passes"
	if c.WouldStop {
		stop = "the next prompt is stopped"
	}
	printf(w, "%-14s idle %s, past the %s TTL: re-writing %s tokens costs %s; a fresh session costs %s over the next 100k tokens against %s carrying on (%s %s; %s at %s)\n",
		"cold cache", cold.Idle(time.Duration(c.IdleSeconds)*time.Second), c.TTL, notice.Thousands(c.Context), notice.USD(c.RecacheUSD),
		notice.USD(c.FreshUSD), notice.USD(c.CarryOnUSD), verb, notice.USD(saving), stop, notice.USD(c.ThresholdUSD))
}
