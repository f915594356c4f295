// Package override lays price files over the built-in table (design §4).
// The user's own file, under their config folder, may change any rate
// (within a decade of what the model is charged: a discount or a new list
// price, prices.Row.CheckRepriced) and add models; a project's committed
// file may only add models the table lacks, so that a repository someone
// clones cannot change what they are charged or where their lines fall.
// Every rate, wherever it comes from, must be a price (prices.Row.Check).
//
// Files are TOML, read with github.com/BurntSushi/toml behind a guard
// (MaxSize, MaxDepth), and only by the full program: the hook does not
// link this package, and takes the merged table from the cache the
// commands write (prices.WriteCache).
package override

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
)

// MaxSize bounds a price file (reading's bounds table): the built-in
// table is under 4 KB.
const MaxSize = reading.MaxPriceFile

// Load lays the user's file, then the project's (prices.UserFile,
// prices.ProjectFile), over the built-in table. Warnings are what a
// command shows and carries on past: a project's row for a model already
// priced (ignored), a key Decode does not know (skipped), an as_of that is
// not a date (ignored). A file that is refused (unreadable, larger than
// MaxSize, nested deeper than MaxDepth, not TOML, with a rate that is not
// a price, or, in the user's file, a rate for a priced model more than a
// decade from what it charges: prices.Row.CheckRepriced) is an error
// naming it and, where it can, the line; the table is then the built-in
// one.
func Load(root string, getenv func(string) string) (t *prices.Table, warnings []string, err error) {
	t, _ = prices.Embedded()
	for _, f := range []struct {
		name    string
		project bool
	}{{prices.UserFile(getenv), false}, {prices.ProjectFile(root), true}} {
		if f.name == "" {
			continue
		}
		o, w, err := Read(f.name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t, _ = prices.Embedded()
			return t, nil, err
		}
		warnings = append(warnings, w...)
		if !f.project && o.AsOf != "" {
			t.AsOf = o.AsOf
		}
		for _, r := range o.Rows {
			known, priced := t.Lookup(r.ID, r.Speed)
			if f.project && priced {
				warnings = append(warnings, fmt.Sprintf("%s: model %q%s is priced already and a project's file may only add models: its row is ignored",
					f.name, r.ID, speedWords(r.Speed)))
				continue
			}
			if priced {
				if err := r.CheckRepriced(&known); err != nil {
					t, _ = prices.Embedded()
					return t, nil, fmt.Errorf("%s: model %q%s: %w", f.name, r.ID, speedWords(r.Speed), err)
				}
			}
			t.Set(r)
		}
		t.Files = append(t.Files, f.name)
	}
	return t, warnings, nil
}

func speedWords(speed string) string {
	if speed == "" {
		return ""
	}
	return fmt.Sprintf(" at speed %q", speed)
}

// Read reads the price file name: a regular file of at most MaxSize
// bytes (reading.ReadFile), then Decode.
func Read(name string) (*prices.Table, []string, error) {
	data, err := reading.ReadFile(name, MaxSize)
	if err != nil {
		return nil, nil, err
	}
	return Decode(data, name)
}

// file is a price file as the TOML library decodes it. A rate is a
// pointer, so that a missing one is told from a zero.
type file struct {
	AsOf  string `toml:"as_of"`
	Model []row  `toml:"model"`
}

type row struct {
	ID        string `toml:"id"`
	Speed     string `toml:"speed"`
	BandAbove int64  `toml:"band_above"`
	Band      *rates `toml:"band"`
	rates
}

type rates struct {
	Input        *float64 `toml:"input"`
	Output       *float64 `toml:"output"`
	CacheRead    *float64 `toml:"cache_read"`
	CacheWrite5m *float64 `toml:"cache_write_5m"`
	CacheWrite1h *float64 `toml:"cache_write_1h"`
}

// Decode reads a price file's text; name is for errors and warnings. It
// checks the size and the nesting, then decodes with the TOML library.
// Each row must give an id and its five rates (its band's too, if it has
// one), each rate a price; a refusal names the line where it can. A key
// Decode does not know is skipped with a warning, as is an as_of that is
// not a date.
func Decode(data []byte, name string) (*prices.Table, []string, error) {
	if len(data) > MaxSize {
		return nil, nil, fmt.Errorf("%s: %w (%d bytes, at most %d)", name, reading.ErrTooLarge, len(data), MaxSize)
	}
	if err := checkNesting(data); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	var f file
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	var warnings []string
	seen := map[string]bool{}
	for _, k := range md.Undecoded() {
		if s := k.String(); !seen[s] {
			seen[s] = true
			warnings = append(warnings, fmt.Sprintf("%s: unknown key %q skipped", name, s))
		}
	}
	t := &prices.Table{}
	if _, err := time.Parse(time.DateOnly, f.AsOf); err == nil {
		t.AsOf = f.AsOf
	} else if f.AsOf != "" {
		warnings = append(warnings, fmt.Sprintf("%s: as_of %q is not a date (YYYY-MM-DD): ignored", name, f.AsOf))
	}
	// Every rate is checked before any is missed: a rate that is not a
	// price is the graver fault.
	missing := make([]string, len(f.Model))
	for i, r := range f.Model {
		out := prices.Row{ID: r.ID, Speed: r.Speed, BandAbove: r.BandAbove}
		out.Rates, missing[i] = r.rates.fill("")
		if r.Band != nil {
			band, m := r.Band.fill("band.")
			out.Band = &band
			missing[i] = cmp.Or(missing[i], m)
		}
		if err := out.Check(); err != nil {
			var re *prices.RateError
			if errors.As(err, &re) {
				if n := lineOf(data, re.Key[strings.LastIndexByte(re.Key, '.')+1:], re.Value); n > 0 {
					return nil, nil, fmt.Errorf("%s: line %d: %w", name, n, err)
				}
			}
			return nil, nil, fmt.Errorf("%s: model %q: %w", name, r.ID, err)
		}
		t.Rows = append(t.Rows, out)
	}
	for i, m := range missing {
		if m != "" {
			return nil, nil, fmt.Errorf("%s: model %q has no %s rate", name, f.Model[i].ID, m)
		}
	}
	return t, warnings, nil
}

// values are the rates in the order of prices.RateKeys, nil where missing.
func (r *rates) values() [5]*float64 {
	return [5]*float64{r.Input, r.Output, r.CacheRead, r.CacheWrite5m, r.CacheWrite1h}
}

// fill returns the rates given, a missing one standing at the lowest
// plausible value so that the others can be checked, and the key of the
// first one missing.
func (r *rates) fill(prefix string) (prices.Rates, string) {
	lo, _ := prices.Plausible()
	v, missing := lo, ""
	for k, p := range r.values() {
		if p != nil {
			v[k] = *p
		} else if missing == "" {
			missing = prefix + prices.RateKeys[k]
		}
	}
	return prices.Rates{Input: v[0], Output: v[1], CacheRead: v[2], CacheWrite5m: v[3], CacheWrite1h: v[4]}, missing
}

// lineOf returns the first line of data that, read alone as a row (behind
// the same nesting check), sets the rate key to v; or 0. The TOML library
// keeps the position of a key only for its last occurrence, which is the
// wrong row of an array of tables.
func lineOf(data []byte, key string, v float64) int {
	k := slices.Index(prices.RateKeys[:], key)
	for n, line := range bytes.Split(data, []byte("\n")) {
		var r row
		if k < 0 || !bytes.Contains(line, []byte(key)) || checkNesting(line) != nil || toml.Unmarshal(line, &r) != nil {
			continue
		}
		for _, x := range []*rates{&r.rates, r.Band} {
			if x != nil && x.values()[k] != nil {
				if got := *x.values()[k]; got == v || math.IsNaN(got) && math.IsNaN(v) {
					return n + 1
				}
			}
		}
	}
	return 0
}
