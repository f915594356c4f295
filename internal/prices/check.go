package prices

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// spread is how far past the shipped table's range a rate may lie: a
// decade each way. A successor model has been priced up to ten times
// below its predecessor (Haiku 4.5's input $1, Haiku 5.5's $0.10) and
// fast mode charges up to six times the standard rate, so a real price
// lies within a decade of the rates of its kind the table holds. Outside
// it a rate is a typo or an attack: zero disarms every dollar cap, and a
// huge rate denies every capped call or pulls the lines down into a relay
// loop.
const spread = 10

// RateKeys names the five rates as a price file does.
var RateKeys = [5]string{"input", "output", "cache_read", "cache_write_5m", "cache_write_1h"}

// Values returns the rates in the order of RateKeys.
func (r *Rates) Values() [5]float64 {
	return [5]float64{r.Input, r.Output, r.CacheRead, r.CacheWrite5m, r.CacheWrite1h}
}

// Plausible returns the range each kind of rate (in the order of
// RateKeys) must lie in: from the shipped table's lowest rate of that
// kind, band rates included, divided by spread, to its highest times
// spread. Zero, a negative rate, NaN and the infinities lie outside.
func Plausible() (lo, hi [5]float64) {
	for k := range lo {
		lo[k], hi[k] = math.Inf(1), 0
	}
	widen := func(r *Rates) {
		for k, v := range r.Values() {
			lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		}
	}
	for i := range embeddedRows {
		widen(&embeddedRows[i].Rates)
		if b := embeddedRows[i].Band; b != nil {
			widen(b)
		}
	}
	for k := range lo {
		lo[k], hi[k] = lo[k]/spread, hi[k]*spread
	}
	return lo, hi
}

// RateError reports a rate outside its plausible range.
type RateError struct {
	// Key names the rate as a price file does: "cache_read",
	// "band.input".
	Key             string
	Value, Min, Max float64
	// Model, when set, is the priced model whose rates bound this one
	// (CheckRepriced).
	Model string
}

func (e *RateError) Error() string {
	kind := e.Key[strings.LastIndexByte(e.Key, '.')+1:]
	if e.Model != "" {
		return fmt.Sprintf("%s = %v is not a price for %s (its %s rates lie from %g to %g USD per million tokens)", e.Key, e.Value, e.Model, kind, e.Min, e.Max)
	}
	return fmt.Sprintf("%s = %v is not a price (%s rates lie from %g to %g USD per million tokens)", e.Key, e.Value, kind, e.Min, e.Max)
}

// Check reports whether r can price anything: it has an id, every rate,
// its band's too, lies in its plausible range (else a *RateError), and
// band_above is not negative and comes with a band.
func (r *Row) Check() error {
	if strings.TrimSpace(r.ID) == "" {
		return errors.New("a model row has no id")
	}
	lo, hi := Plausible()
	if err := within(&r.Rates, "", lo, hi, ""); err != nil {
		return err
	}
	if r.BandAbove < 0 || r.BandAbove > 0 && r.Band == nil {
		return fmt.Errorf("band_above = %d wants a band and a positive number of tokens", r.BandAbove)
	}
	return within(r.Band, "band.", lo, hi, "")
}

// CheckRepriced reports whether r, a row of the user's own file for a
// model the table already prices (known), keeps each rate within spread
// of what known charges for that kind (its band's rates included): a
// discount or a new list price, not a rate that makes the model free or
// denies every capped call. A file the agent wrote in the user's config
// folder must not disarm a dollar cap by pricing Opus at a cheap model's
// cache read, which Check alone would take.
func (r *Row) CheckRepriced(known *Row) error {
	lo, hi := known.Values(), known.Values()
	if b := known.Band; b != nil {
		for k, v := range b.Values() {
			lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		}
	}
	for k := range lo {
		lo[k], hi[k] = lo[k]/spread, hi[k]*spread
	}
	if err := within(&r.Rates, "", lo, hi, known.ID); err != nil {
		return err
	}
	return within(r.Band, "band.", lo, hi, known.ID)
}

// within reports the first of rt's rates (none when rt is nil) outside
// [lo, hi] as a *RateError, its key behind prefix; model names the
// priced model that set the range, if one did.
func within(rt *Rates, prefix string, lo, hi [5]float64, model string) error {
	if rt == nil {
		return nil
	}
	for k, v := range rt.Values() {
		if !(v >= lo[k] && v <= hi[k]) {
			return &RateError{Key: prefix + RateKeys[k], Value: v, Min: lo[k], Max: hi[k], Model: model}
		}
	}
	return nil
}
