// Package prices holds the price table: USD per million tokens for each
// Claude model and speed (design §4). The table ships embedded: its source
// is prices.toml, compiled into Go data (table_gen.go, by go generate) so
// that a hook call parses nothing. A user file of the same shape as
// prices.toml overrides or extends it; it is read with this package's own
// reader of the TOML it needs (parse.go), which has no package
// initialisation.
package prices

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// Rates are USD per million tokens.
type Rates struct {
	Input        float64 `toml:"input"`
	Output       float64 `toml:"output"`
	CacheRead    float64 `toml:"cache_read"`
	CacheWrite5m float64 `toml:"cache_write_5m"`
	CacheWrite1h float64 `toml:"cache_write_1h"`
}

// Row is one model and speed.
type Row struct {
	ID    string `toml:"id"`
	Speed string `toml:"speed"`
	Rates
	// BandAbove, when set, bills every token of a request whose prompt is
	// above it at Band's rates.
	BandAbove int64  `toml:"band_above"`
	Band      *Rates `toml:"band"`
}

// Table is a price table.
type Table struct {
	AsOf string `toml:"as_of"`
	Rows []Row  `toml:"model"`
	// Files lists the override files merged into the table, in order.
	Files []string `toml:"-"`
}

// Embedded returns the table built into the binary: a fresh copy, which
// the caller may change.
func Embedded() (*Table, error) {
	t := &Table{AsOf: embeddedAsOf, Rows: make([]Row, len(embeddedRows))}
	copy(t.Rows, embeddedRows[:])
	for i := range t.Rows {
		if b := t.Rows[i].Band; b != nil {
			c := *b
			t.Rows[i].Band = &c
		}
	}
	return t, nil
}

// EmbeddedAsOf is the as_of date of the built-in table (the line cache
// keys on it on every hook call).
func EmbeddedAsOf() string { return embeddedAsOf }

// OverrideFiles lists the user files that may override the table, in the
// order they apply (a later one wins): the user's, then the project's.
func OverrideFiles(root string, getenv func(string) string) []string {
	var files []string
	cfg := getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		if home := getenv("HOME"); home != "" {
			cfg = filepath.Join(home, ".config")
		}
	}
	if cfg != "" {
		files = append(files, filepath.Join(cfg, "context-budget", "prices.toml"))
	}
	if root != "" {
		files = append(files, filepath.Join(root, ".claude", "context-budget", "prices.toml"))
	}
	return files
}

// ForProject is the price table a project's calls are priced with, as the
// hook loads it: the embedded table with the project's and the user's
// override files, or the embedded table alone when an override does not
// parse (the commands that can speak report that; the hook cannot).
func ForProject(root string, getenv func(string) string) *Table {
	t, err := Load(OverrideFiles(root, getenv))
	if err != nil || t == nil {
		t, _ = Embedded()
	}
	return t
}

// Load returns the embedded table merged with the override files that
// exist. A file that does not parse is an error naming it; callers that
// must not fail (the hook) fall back to Embedded.
func Load(files []string) (*Table, error) {
	t, err := Embedded()
	if err != nil {
		return nil, err
	}
	for _, name := range files {
		data, err := readOverride(name)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return t, err
		}
		o, err := Parse(data, name)
		if err != nil {
			return t, err
		}
		t.merge(o)
		t.Files = append(t.Files, name)
	}
	return t, nil
}

// maxOverride bounds what is read of an override file. The project's file
// is committed content the hook reads on a recompute, under a memory budget
// of 16 MiB; a real table is a few kilobytes.
const maxOverride = 1 << 20

// readOverride reads an override file: a regular file of at most
// maxOverride bytes (a FIFO or a link to /dev/zero is refused, not read).
func readOverride(name string) ([]byte, error) {
	return reading.ReadFile(name, maxOverride)
}

// merge lays o over t: a row of o replaces t's row of the same id and
// speed, or is added; o's as_of, if set, becomes the table's.
func (t *Table) merge(o *Table) {
	if o.AsOf != "" {
		t.AsOf = o.AsOf
	}
	for _, r := range o.Rows {
		replaced := false
		for i := range t.Rows {
			if t.Rows[i].ID == r.ID && normSpeed(t.Rows[i].Speed) == normSpeed(r.Speed) {
				t.Rows[i] = r
				replaced = true
			}
		}
		if !replaced {
			t.Rows = append(t.Rows, r)
		}
	}
}

func normSpeed(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "standard" {
		return ""
	}
	return s
}

// undated strips a -YYYYMMDD suffix from a model id.
func undated(id string) string {
	if len(id) < 9 || id[len(id)-9] != '-' {
		return id
	}
	for _, c := range id[len(id)-8:] {
		if c < '0' || c > '9' {
			return id
		}
	}
	return id[:len(id)-9]
}

// Lookup finds the row for a model id and speed: the exact id first, then
// the id without a -YYYYMMDD date or a [1m]-style suffix. An unknown model,
// or a speed the model has no row for, is unpriced (ok false).
func (t *Table) Lookup(model, speed string) (Row, bool) {
	speed = normSpeed(speed)
	id := strings.ToLower(strings.TrimSpace(model))
	if i := strings.IndexByte(id, '['); i > 0 {
		id = id[:i]
	}
	for _, cand := range []string{id, undated(id)} {
		for _, r := range t.Rows {
			if strings.ToLower(r.ID) == cand && normSpeed(r.Speed) == speed {
				return r, true
			}
		}
	}
	return Row{}, false
}

// At returns the rates that apply to a request carrying prompt tokens.
func (r Row) At(prompt int64) Rates {
	if r.BandAbove > 0 && prompt > r.BandAbove && r.Band != nil {
		return *r.Band
	}
	return r.Rates
}

// Cost prices one response's usage in USD.
func (r Row) Cost(u *transcript.Usage) float64 {
	rt := r.At(u.Context())
	return (float64(u.InputTokens)*rt.Input +
		float64(u.Write5m())*rt.CacheWrite5m +
		float64(u.Write1h())*rt.CacheWrite1h +
		float64(u.CacheReadInputTokens)*rt.CacheRead +
		float64(u.OutputTokens)*rt.Output) / 1e6
}
