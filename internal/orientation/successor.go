package orientation

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// Source names where the successor's reorientation (W, R) came from
// (design §8), in the order they are tried.
type Source string

// The sources.
const (
	// OwnRelayed: this session was itself relayed; its own orientation is
	// what a successor's reorientation measures.
	OwnRelayed Source = "own-relayed"
	// LedgerRelayed: the mean over the ledger's relayed sessions.
	LedgerRelayed Source = "ledger-relayed"
	// Own: this session's own orientation, a fresh start's.
	Own Source = "own"
	// Prior: nothing of the project measured; W and R come from the
	// prior fitted on real sessions' own orientations
	// (forecast.Shipped.Orientation), from this session's first context.
	Prior Source = "prior"
)

// Reorientation is what a successor is expected to spend to re-orient
// (W and R of design §8): Tokens of context when it first acts, CostUSD
// before that. It is the program's one reorientation: the policy's
// decision, the line cache and `lines` hold it as it is.
type Reorientation struct {
	Tokens  int64   `json:"tokens"`
	CostUSD float64 `json:"cost_usd"`
	Source  Source  `json:"source"`
	// Count is the number of relayed rows averaged (LedgerRelayed), or
	// of sessions the prior was fitted on (Prior).
	Count int `json:"count,omitempty"`
	// Words names the source for the notice and `lines`.
	Words string `json:"words"`
}

// Words says a source in the words the notice uses.
func Words(s Source, count int) string {
	switch s {
	case OwnRelayed:
		return "this session's own reorientation (it was relayed)"
	case LedgerRelayed:
		if count == 1 {
			return "the one relayed session in the ledger"
		}
		return fmt.Sprintf("the mean of %d relayed sessions in the ledger", count)
	case Own:
		return "this session's own orientation"
	}
	return fmt.Sprintf("the prior fitted on %d fresh sessions of one project", count)
}

// SuccessorInputs are what Successor needs.
type SuccessorInputs struct {
	// Root is the project: its ledger is read, its state folder caches.
	Root string
	// Session and Transcript name this session and its transcript.
	Session, Transcript string
	// Table prices this session's orientation; nil means the embedded one.
	Table *prices.Table
	// Prior returns the prior's figures for the session (W and R from
	// its first context), and how many sessions it was fitted on; called
	// only when nothing was measured.
	Prior func() (w int64, r float64, sessions int)
	// SkipLedger leaves the ledger's rows out: the reorientation as the
	// session alone gives it, which bounds what the rows may do to the
	// lines.
	SkipLedger bool
}

// Successor returns the successor's reorientation from the first source
// that has one: this session's own if it was relayed, the mean over the
// ledger's relayed rows, this session's own orientation, the prior.
// The ledger's mean and this session's measured orientation are cached in
// the state folder; anything unreadable falls through to the next source.
func Successor(in SuccessorInputs) Reorientation {
	if in.Root != "" {
		own, relayed, ok := ownOrientation(state.Dir(in.Root), in)
		if ok && relayed {
			return reorientation(own.ContextTokens, own.Spend.CostUSD, OwnRelayed, 0)
		}
		if !in.SkipLedger {
			if m, ok := LedgerMean(in.Root); ok {
				return reorientation(m.W, m.R, LedgerRelayed, m.Count)
			}
		}
		if ok {
			return reorientation(own.ContextTokens, own.Spend.CostUSD, Own, 0)
		}
	}
	var w int64
	var r float64
	n := 0
	if in.Prior != nil {
		w, r, n = in.Prior()
	}
	return reorientation(w, r, Prior, n)
}

// reorientation is a Reorientation from source s, with its words.
func reorientation(w int64, r float64, s Source, count int) Reorientation {
	return Reorientation{Tokens: w, CostUSD: r, Source: s, Count: count, Words: Words(s, count)}
}

// ownCache is <state>/<session>.orientation: the session's orientation
// once measured; it never changes after. Until then
// <state>/<session>.orientation-search keeps how far the session's files
// were searched without a sign of acting.
type ownCache struct {
	Relayed bool         `json:"relayed"`
	Phase   ledger.Phase `json:"phase"`
}

func ownOrientation(dir string, in SuccessorInputs) (ledger.Phase, bool, bool) {
	if !state.PlainName(in.Session) || in.Transcript == "" {
		return ledger.Phase{}, false, false
	}
	name := filepath.Join(dir, in.Session+state.OrientationSuffix)
	if c, ok := state.FromJSON[ownCache](reading.ReadFile(name, reading.MaxCacheFile)); ok && c.Phase.Measured() && c.Phase.Check() == nil {
		return c.Phase, c.Relayed, true
	}
	searchName := filepath.Join(dir, in.Session+state.OrientationSearchSuffix)
	p, _ := state.FromJSON[progress](reading.ReadFile(searchName, reading.MaxCacheFile))
	if !p.searchAll(in.Transcript) {
		state.WriteJSON(searchName, p)
		return ledger.Phase{}, false, false
	}
	s, err := ReadOrientation(in.Transcript)
	if err != nil {
		return ledger.Phase{}, false, false
	}
	tab := in.Table
	if tab == nil {
		tab, _ = prices.Embedded()
	}
	ph := Orientation(s, NewPricer(tab), Options{})
	if !ph.Measured() || ph.Check() != nil {
		state.WriteJSON(searchName, p)
		return ledger.Phase{}, false, false
	}
	relayed := Relayed(s)
	state.WriteJSON(name, ownCache{Relayed: relayed, Phase: ph})
	state.Remove(searchName)
	return ph, relayed, true
}

// Mean is the mean orientation over the ledger's relayed rows.
type Mean struct {
	Count int
	W     int64
	R     float64
	// Skipped counts the files that were not rows.
	Skipped int
}

// meanCache is <state>/ledger-mean.json: the ledger folder's key, and what
// each row file contributes, keyed on its path, size and time.
type meanCache struct {
	Key  string                `json:"key"`
	Rows map[string]rowSummary `json:"rows"`
}

type rowSummary struct {
	Size    int64   `json:"size"`
	ModTime int64   `json:"mtime_ns"`
	Bad     bool    `json:"bad,omitempty"`
	Relayed bool    `json:"relayed,omitempty"`
	W       int64   `json:"w,omitempty"`
	R       float64 `json:"r,omitempty"`
}

// dropBad forgets the cached summaries the mean would not take from a row
// (ledger.Phase.Plausible: the cache may be tampered with, or older than
// the bounds), so their rows are read again.
func (c *meanCache) dropBad() {
	for name, s := range c.Rows {
		ph := ledger.Phase{EndedBy: "cached", ContextTokens: s.W, Spend: ledger.Tally{CostUSD: s.R}}
		if s.Relayed && !ph.Plausible() {
			delete(c.Rows, name)
			c.Key = ""
		}
	}
}

// LedgerMean returns the mean orientation (context and dollars) over the
// root's ledger rows whose session was relayed and whose orientation lies
// within what real sessions show (ledger.Phase.Plausible); ok is false
// when there is none. What each row contributes is cached in
// <state>/ledger-mean.json with the file's size and time, so only rows
// that changed are read again; a key of the month folders' names, times
// and file names, when unchanged, skips even the per-file check.
func LedgerMean(root string) (Mean, bool) {
	dir := ledger.Dir(root)
	listing, key, recent, err := listLedger(dir)
	if err != nil {
		return Mean{}, false
	}
	cacheName := filepath.Join(state.Dir(root), state.LedgerMean)
	c, _ := state.FromJSON[meanCache](reading.ReadFile(cacheName, reading.MaxCacheFile))
	c.dropBad()
	changed := c.Key != key
	if changed {
		rows := make(map[string]rowSummary, len(listing))
		for _, name := range listing {
			info, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				continue
			}
			prev, ok := c.Rows[name]
			if ok && prev.Size == info.Size() && prev.ModTime == info.ModTime().UnixNano() {
				rows[name] = prev
				continue
			}
			rows[name] = summarize(filepath.Join(dir, name), info)
		}
		c = meanCache{Key: key, Rows: rows}
		if recent {
			// A folder changed within the file system's time resolution
			// could change again under the same time: check per file
			// next time.
			c.Key = ""
		}
		state.WriteJSON(cacheName, c)
	}
	var m Mean
	var w int64
	var r float64
	for _, s := range c.Rows {
		switch {
		case s.Bad:
			m.Skipped++
		case s.Relayed:
			m.Count++
			w += s.W
			r += s.R
		}
	}
	if m.Count > 0 {
		m.W = (w + int64(m.Count)/2) / int64(m.Count)
		m.R = r / float64(m.Count)
	}
	return m, m.Count > 0
}

// summarize reads one row: what it adds to the mean, or that it is bad.
func summarize(name string, info os.FileInfo) rowSummary {
	s := rowSummary{Size: info.Size(), ModTime: info.ModTime().UnixNano()}
	data, err := reading.ReadFile(name, reading.MaxLedgerRow)
	var row ledger.Row
	if err == nil {
		row, err = ledger.Parse(data)
	}
	if err != nil {
		s.Bad = true
		return s
	}
	// A relayed row whose orientation no real session has is left out,
	// as a row that was not relayed is.
	if row.Relayed() && row.Orientation.Plausible() {
		s.Relayed, s.W, s.R = true, row.Orientation.ContextTokens, row.Orientation.Spend.CostUSD
	}
	return s
}

// listLedger lists the row files (month/name.json) and a key of the
// folder's state: the month folders' names and modification times and
// their files' names. A missing folder is an empty ledger.
func listLedger(dir string) (files []string, key string, recent bool, err error) {
	h := fnv.New64a()
	months, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return nil, "", false, err
	}
	now := time.Now()
	for _, mo := range months {
		if !mo.IsDir() {
			continue
		}
		info, err := mo.Info()
		if err != nil {
			return nil, "", false, err
		}
		if now.Sub(info.ModTime()) < 2*time.Second {
			recent = true
		}
		h.Write([]byte(mo.Name() + "\x00" + strconv.FormatInt(info.ModTime().UnixNano(), 10) + "\x00"))
		entries, err := os.ReadDir(filepath.Join(dir, mo.Name()))
		if err != nil {
			return nil, "", false, err
		}
		for _, f := range entries {
			n := f.Name()
			h.Write([]byte(n + "\x00"))
			if filepath.Ext(n) == ".json" && n[0] != '.' && !f.IsDir() {
				files = append(files, mo.Name()+"/"+n)
			}
		}
	}
	return files, strconv.FormatUint(h.Sum64(), 16), recent, nil
}
