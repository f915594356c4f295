// Package prices holds the price table: USD per million tokens for each
// Claude model and speed (design §4), and its lookup. The table ships
// embedded: its source is prices.toml, compiled into Go data
// (table_gen.go, by go generate) so that a hook call parses nothing.
//
// The user's own file and a project's committed one are laid over it by
// package override, which reads TOML; this package does not, so that the
// hook, which links it, runs no TOML package initialisation. The hook
// takes the merged table from the cache the full program writes
// (WriteCache, ReadCache).
package prices

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/muthur/context-budget/internal/transcript"
)

//go:generate go run ../../tools/gentable

// Rates are USD per million tokens.
type Rates struct {
	Input, Output, CacheRead, CacheWrite5m, CacheWrite1h float64
}

// Row is one model and speed.
type Row struct {
	ID    string
	Speed string
	Rates
	// BandAbove, when set, bills every token of a request whose prompt is
	// above it at Band's rates.
	BandAbove int64
	Band      *Rates
}

// Table is a price table.
type Table struct {
	AsOf string
	Rows []Row
	// Files lists the override files merged into the table, in order.
	Files []string
}

// Embedded returns the table built into the binary: a fresh copy, which
// the caller may change. The error is always nil.
func Embedded() (*Table, error) {
	t := &Table{AsOf: embeddedAsOf, Rows: slices.Clone(embeddedRows[:])}
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

// UserFile is the user's own price file, under their config folder
// ($XDG_CONFIG_HOME, else ~/.config), or "" when neither is set.
func UserFile(getenv func(string) string) string {
	cfg := getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		if home := getenv("HOME"); home != "" {
			cfg = filepath.Join(home, ".config")
		}
	}
	if cfg == "" {
		return ""
	}
	return filepath.Join(cfg, "context-budget", "prices.toml")
}

// ProjectFile is a project's committed price file, or "" without a root.
func ProjectFile(root string) string {
	if root == "" {
		return ""
	}
	return filepath.Join(root, ".claude", "context-budget", "prices.toml")
}

// OverrideFiles lists the files that may be laid over the table, in the
// order they apply: the user's, then the project's.
func OverrideFiles(root string, getenv func(string) string) []string {
	var files []string
	for _, f := range []string{UserFile(getenv), ProjectFile(root)} {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}

// Set puts r in the table: in place of the row of the same id and speed,
// or added.
func (t *Table) Set(r Row) {
	for i := range t.Rows {
		if strings.EqualFold(t.Rows[i].ID, r.ID) && normSpeed(t.Rows[i].Speed) == normSpeed(r.Speed) {
			t.Rows[i] = r
			return
		}
	}
	t.Rows = append(t.Rows, r)
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
