// Package prices holds the price table: USD per million tokens for each
// Claude model and speed (design §4). The table ships embedded as TOML with
// its as_of date; a user file of the same shape overrides or extends it.
package prices

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/muthur/context-budget/internal/transcript"
)

//go:embed prices.toml
var embedded []byte

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

// Embedded returns the table built into the binary.
func Embedded() (*Table, error) {
	return parse(embedded, "embedded prices.toml")
}

// EmbeddedAsOf is the as_of date of the built-in table, read without
// parsing the table (the line cache keys on it on every hook call).
func EmbeddedAsOf() string {
	// A plain scan, not a regexp: a package-level regexp is compiled at
	// start-up, which every hook call would pay.
	for line := range strings.Lines(string(embedded)) {
		rest, ok := strings.CutPrefix(line, "as_of")
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if rest, ok = strings.CutPrefix(rest, "="); !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if len(rest) >= 2 && rest[0] == '"' {
			if end := strings.IndexByte(rest[1:], '"'); end >= 0 {
				return rest[1 : 1+end]
			}
		}
	}
	return ""
}

func parse(data []byte, name string) (*Table, error) {
	var t Table
	md, err := toml.Decode(string(data), &t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s", name, und[0])
	}
	for i, r := range t.Rows {
		if r.ID == "" {
			return nil, fmt.Errorf("%s: model row %d has no id", name, i+1)
		}
		if r.Input < 0 || r.Output < 0 || r.CacheRead < 0 || r.CacheWrite5m < 0 || r.CacheWrite1h < 0 {
			return nil, fmt.Errorf("%s: model %s has a negative rate", name, r.ID)
		}
		if r.BandAbove > 0 && r.Band == nil {
			return nil, fmt.Errorf("%s: model %s has band_above but no [model.band]", name, r.ID)
		}
	}
	return &t, nil
}

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
		o, err := parse(data, name)
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

// readOverride reads an override file, refusing one past maxOverride.
func readOverride(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOverride+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxOverride {
		return nil, fmt.Errorf("%s: larger than %d bytes, not a price table", name, maxOverride)
	}
	return data, nil
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
