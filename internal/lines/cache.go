package lines

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
	"github.com/muthur/context-budget/ledger"
)

// Regrowth is the growth of the reading after which the lines are
// recomputed.
const Regrowth = 10_000

// PassSlice bounds the transcript bytes one recompute's history pass
// reads, so that a recompute finishes inside the hook's pricing budget: a
// pass far behind catches up over several calls.
const PassSlice = 16 << 20

// passSlice is PassSlice, smaller in tests.
var passSlice int64 = PassSlice

// Format is the line cache's format. An entry of another format is a
// miss, and the next recompute replaces it.
const Format = 7

// Entry is what a session's line cache holds (<state>/<session>.line):
// one JSON object, written whole by the recompute. The history the
// decision was made from is kept beside it (<session>.history), read only
// by the next recompute.
type Entry struct {
	Made
	Decision Decision `json:"decision"`
	// First and TTL1h are what an idle session's cold mark needs of the
	// history: the first response's figures and whether the session
	// writes to the 1-hour cache.
	First *forecast.Response `json:"first,omitempty"`
	TTL1h bool               `json:"ttl_1h,omitempty"`
}

// Made is what an entry's decision was made for: everything the hook
// checks before it takes the entry's lines. Its fields are plain values
// and lists, so that a quiet call reads them by path (LoadQuick).
type Made struct {
	Format int `json:"format"`
	// Settings are the settings the decision was made under, as
	// settingsKey writes them; Deps what else it depends on besides the
	// reading.
	Settings string `json:"settings"`
	Deps     Deps   `json:"deps"`
	// Reading is the reading the decision was made at; Version the Claude
	// Code version of its record; Transcript the transcript it read.
	Reading    int64  `json:"reading"`
	Version    string `json:"version,omitempty"`
	Transcript string `json:"transcript"`
	// Partial says the history's pass has not caught up with the
	// transcript: the decision is provisional and the next call resumes
	// the pass.
	Partial bool `json:"partial,omitempty"`
}

// Quick is the part of an entry the hook and the status line read: what
// it was made for, and of the decision what they say: the lines, the
// compactions, the relay's money and verdict at a reading
// (Decision.Money: Priced, Cost, Band, BandAbove, Spread, PaceFrom,
// Policy and the reorientation's Words) and the window. The rest of
// Decision is unset.
type Quick struct {
	Made
	Decision Decision
}

// Deps names what a decision depends on besides the reading and the
// transcript: the variables it read, and the files whose size and time
// (or, for Present and Absent, existence) it saw. A hook call checks them
// without knowing what they are, so it reads no settings or price file.
type Deps struct {
	// Env holds each variable as NAME=value.
	Env []string `json:"env,omitempty"`
	// Files holds pairs: a file's name, then its Stamp ("" for a file
	// that did not exist).
	Files []string `json:"files,omitempty"`
	// Grown holds pairs: a file's name, then the size it had: it holds
	// while the file is at least that long (a transcript that only grew
	// still holds what was read of it).
	Grown []string `json:"grown,omitempty"`
	// Present and Absent name the files seen to exist, and not to.
	Present []string `json:"present,omitempty"`
	Absent  []string `json:"absent,omitempty"`
}

// Stamp is a file's size and modification time as Deps records them, ""
// when it cannot be stat'ed.
func Stamp(name string) string {
	fi, err := os.Stat(name)
	if err != nil {
		return ""
	}
	return strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}

// Hold reports whether every dependency still reads as recorded.
func (d *Deps) Hold(getenv func(string) string) bool {
	for _, kv := range d.Env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || getenv(k) != v {
			return false
		}
	}
	if len(d.Files)%2 != 0 || len(d.Grown)%2 != 0 {
		return false
	}
	for i := 0; i < len(d.Files); i += 2 {
		if Stamp(d.Files[i]) != d.Files[i+1] {
			return false
		}
	}
	for i := 0; i < len(d.Grown); i += 2 {
		fi, err := os.Stat(d.Grown[i])
		if err != nil || fi.Size() < atoi(d.Grown[i+1]) {
			return false
		}
	}
	for _, name := range d.Present {
		if _, err := os.Stat(name); err != nil {
			return false
		}
	}
	for _, name := range d.Absent {
		if _, err := os.Stat(name); err == nil {
			return false
		}
	}
	return true
}

// atoi reads a size Deps recorded; an unreadable one is past any file.
func atoi(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return math.MaxInt64
	}
	return n
}

// GrownDep records name at its size now for Deps.Grown; nothing when it
// cannot be stat'ed.
func (d *Deps) GrownDep(name string) {
	if fi, err := os.Stat(name); err == nil {
		d.Grown = append(d.Grown, name, strconv.FormatInt(fi.Size(), 10))
	}
}

// FileDep records name's Stamp for Deps.Files.
func (d *Deps) FileDep(name string) {
	d.Files = append(d.Files, name, Stamp(name))
}

// settingsKey is the settings as an entry records them: every field, in
// order (TestSettingsKeyCoversEverySetting holds it to every field). It
// is made on every tool call, so with strconv alone, not fmt.
func settingsKey(s tuning.Settings) string {
	b := make([]byte, 0, 96)
	for _, n := range []int64{s.Warn, s.Pause, int64(math.Float64bits(s.WarnSaving)), int64(math.Float64bits(s.PauseSaving)),
		int64(s.Manual), s.Window} {
		b = strconv.AppendInt(b, n, 10)
		b = append(b, ' ')
	}
	b = strconv.AppendBool(b, s.Fixed)
	b = append(b, ' ')
	b = append(b, s.Rate...)
	b = append(b, ' ')
	return string(append(b, s.Prefer...))
}

// Call is one call's view of a session: a hook call's, the status
// line's, the cold check's.
type Call struct {
	// Dir is the state folder, ID the session id (a plain name).
	Dir, ID string
	// Root is the project root, Transcript the transcript's path.
	Root, Transcript string
	Settings         tuning.Settings
	Getenv           func(string) string
	// Reading and RequestedModel are the current reading and its record's
	// requestedModel; Model the model that served it.
	Reading        int64
	RequestedModel string
	Model          string
	// Version is the Claude Code version of the reading's record.
	Version string
	// Table is the price table to price with; nil is the embedded one.
	Table *prices.Table
	// NoSave makes DecideCached write nothing: the cold check on a prompt
	// must not move the cache the hook's notices come from.
	NoSave bool
	// Sources are the compaction point's sources the caller found, and
	// SourceDeps the files they were read from, which the cache keeps.
	Sources    Sources
	SourceDeps Deps
	// Own is the session's own orientation when a caller with no Root
	// (replay) measured it.
	Own *Own
}

// FileName is the cache file of a session.
func FileName(dir, id string) string {
	return filepath.Join(dir, id+state.LineSuffix)
}

// historyFile is the file the recompute keeps the session's history in.
func historyFile(dir, id string) string {
	return filepath.Join(dir, id+state.HistorySuffix)
}

// envDeps are the variables a decision reads besides those of its
// Settings.
var envDeps = []string{window.EnvPctOverride, window.EnvCompactLimit, "HOME", "XDG_CONFIG_HOME"}

// deps records what a decision made now for call depends on.
func (call *Call) deps() Deps {
	var d Deps
	for _, k := range envDeps {
		d.Env = append(d.Env, k+"="+call.Getenv(k))
	}
	for _, name := range prices.OverrideFiles(call.Root, call.Getenv) {
		d.FileDep(name)
	}
	d.FileDep(window.FileName(call.Dir, call.ID))
	d.Files = append(d.Files, call.SourceDeps.Files...)
	d.Grown = append(d.Grown, call.SourceDeps.Grown...)
	if call.Root != "" {
		// A ledger row added, replaced or removed changes its folder's time.
		dir := ledger.Dir(call.Root)
		d.FileDep(dir)
		if months, err := os.ReadDir(dir); err == nil && len(months) > 0 {
			d.FileDep(filepath.Join(dir, months[len(months)-1].Name()))
		}
		if state.PlainName(call.ID) {
			own := filepath.Join(state.Dir(call.Root), call.ID+state.OrientationSuffix)
			if _, err := os.Stat(own); err == nil {
				d.Present = append(d.Present, own)
			} else {
				d.Absent = append(d.Absent, own)
			}
		}
	}
	return d
}

// Load reads a session's cache file; ok is false when it is missing,
// unreadable or of another format.
func Load(dir, id string) (e Entry, ok bool) {
	data, err := reading.ReadFile(FileName(dir, id), reading.MaxCacheFile)
	if err != nil || json.Unmarshal(data, &e) != nil || e.Format != Format || !positive(e.Decision.Lines.Tokens()) {
		return Entry{}, false
	}
	return e, true
}

// LoadQuick is Load for a quiet hook call and the status line: the
// entry's Quick part alone, read by path, which spares a fresh process
// the decoding of the whole decision.
func LoadQuick(dir, id string) (q Quick, ok bool) {
	data, err := reading.ReadFile(FileName(dir, id), reading.MaxCacheFile)
	if err != nil {
		return Quick{}, false
	}
	var format, compactions, count, sessions int64
	var warnBy, pauseBy string
	var band restart.Model
	var spread forecast.Band
	var hasBand, hasSpread reading.Got
	d := &q.Decision
	w := &d.Window
	fields := []reading.Field{
		{Path: "format", To: &format},
		{Path: "settings", To: &q.Settings},
		{Path: "deps.env", To: &q.Deps.Env},
		{Path: "deps.files", To: &q.Deps.Files},
		{Path: "deps.grown", To: &q.Deps.Grown},
		{Path: "deps.present", To: &q.Deps.Present},
		{Path: "deps.absent", To: &q.Deps.Absent},
		{Path: "reading", To: &q.Reading},
		{Path: "version", To: &q.Version},
		{Path: "transcript", To: &q.Transcript},
		{Path: "partial", To: &q.Partial},
		{Path: "decision.lines.warn.tokens", To: &d.Lines.Warn.Tokens},
		{Path: "decision.lines.warn.set_by", To: &warnBy},
		{Path: "decision.lines.warn.saving_usd", To: &d.Lines.Warn.SavingUSD},
		{Path: "decision.lines.pause.tokens", To: &d.Lines.Pause.Tokens},
		{Path: "decision.lines.pause.set_by", To: &pauseBy},
		{Path: "decision.lines.pause.saving_usd", To: &d.Lines.Pause.SavingUSD},
		{Path: "decision.compactions", To: &compactions},
		{Path: "decision.priced", To: &d.Priced},
		{Path: "decision.band_above", To: &d.BandAbove},
		{Path: "decision.band", Got: &hasBand},
		{Path: "decision.reorientation.words", To: &d.Reorientation.Words},
		{Path: "decision.pace_from", To: &d.PaceFrom},
		{Path: "decision.policy", To: &d.Policy},
		{Path: "decision.spread", Got: &hasSpread},
		{Path: "decision.spread.share", To: &spread.Share},
		{Path: "decision.spread.lo", To: &spread.Lo},
		{Path: "decision.spread.hi", To: &spread.Hi},
		{Path: "decision.window.tokens", To: &w.Tokens},
		{Path: "decision.window.source", To: &w.Source},
		{Path: "decision.window.compacts_at", To: &w.CompactsAt},
		{Path: "decision.window.compacts_source", To: &w.CompactSource},
		{Path: "decision.window.version", To: &w.Version},
		{Path: "decision.window.count", To: &count},
		{Path: "decision.window.sessions", To: &sessions},
		{Path: "decision.window.pause_room", To: &w.PauseRoom},
		{Path: "decision.window.any_version", To: &w.AnyVersion},
	}
	fields = append(fields, modelFields("decision.cost.", &d.Cost)...)
	fields = append(fields, modelFields("decision.band.", &band)...)
	// A value of another type is a miss, as it is for Load.
	for i := range fields {
		fields[i].Strict, fields[i].Max = true, reading.MaxCacheFile
	}
	if reading.NewPick(fields...).Decode(data) != nil || format != Format || !positive(q.Tokens()) {
		return Quick{}, false
	}
	q.Format, d.Compactions = Format, int(compactions)
	d.Lines.Warn.SetBy, d.Lines.Pause.SetBy = SetBy(warnBy), SetBy(pauseBy)
	w.Count, w.Sessions = int(count), int(sessions)
	if hasBand == reading.Found {
		d.Band = &band
	}
	if hasSpread == reading.Found {
		d.Spread = &spread
	}
	return q, true
}

// modelFields are the fields of a cost model written under prefix.
func modelFields(prefix string, m *restart.Model) []reading.Field {
	return []reading.Field{
		{Path: prefix + "Read", To: &m.Read},
		{Path: prefix + "Output", To: &m.Output},
		{Path: prefix + "Write", To: &m.Write},
		{Path: prefix + "Q", To: &m.Q},
		{Path: prefix + "W", To: &m.W},
		{Path: prefix + "R", To: &m.R},
		{Path: prefix + "rewrite", To: &m.Rewrite},
		{Path: prefix + "out_per_request", To: &m.OutPerRequest},
	}
}

// positive reports whether both lines are above zero. The cache is a
// file like any other: lines no computation gives (a line at or under
// zero would pause every call) are a miss.
func positive(ls climb.LineTokens) bool { return ls.Warn > 0 && ls.Pause > 0 }

// Tokens is the quick entry's lines in tokens.
func (q *Quick) Tokens() climb.LineTokens {
	return climb.LineTokens{Warn: q.Decision.Lines.Warn.Tokens, Pause: q.Decision.Lines.Pause.Tokens}
}

// For reports whether the entry was made for call's session as it
// stands now, whatever the reading: same transcript, Claude Code version
// and settings, every dependency unchanged. The status line shows such an
// entry's lines.
func (m *Made) For(call *Call) bool {
	return m.Transcript == call.Transcript && m.Version == call.Version && m.Settings == settingsKey(call.Settings) &&
		m.Deps.Hold(call.Getenv)
}

// Holds reports whether the entry still answers for call: made for it
// (For), complete, and still fresh at its reading (Fresh).
func (m *Made) Holds(call *Call) bool {
	return !m.Partial && Fresh(m.Reading, call.Reading) && m.For(call)
}

// Fresh reports whether lines computed at reading at still hold at
// reading now, whatever else is unchanged: the reading has neither grown
// Regrowth tokens past it, nor dropped below it, nor crossed 200,000 from
// below (evidence of a 1M window). Replay applies the same rule.
func Fresh(at, now int64) bool {
	return now >= at && now < at+Regrowth && !(now > window.Standard && at <= window.Standard)
}

// DecideCached returns the session's Decision: the cached one when it
// holds, else a new one, saved; while the history's pass is catching up
// (see Bounded passes) a provisional one. hit reports a cache hit. The
// error is only the save's: the Decision is good either way.
func DecideCached(call *Call) (d Decision, hit bool, err error) {
	e, hit, err := call.decide()
	return e.Decision, hit, err
}

// Peek is DecideCached without saving (NoSave), also returning the
// entry: what the cold check on a prompt prices with.
func Peek(call *Call) Entry {
	ps := *call
	ps.NoSave = true
	e, _, _ := ps.decide()
	return e
}

// decide is DecideCached, returning the whole entry.
func (call *Call) decide() (Entry, bool, error) {
	old, ok := Load(call.Dir, call.ID)
	if ok && old.Holds(call) {
		return old, true, nil
	}
	e := Entry{Made: Made{Format: Format, Settings: settingsKey(call.Settings), Deps: call.deps(), Reading: call.Reading,
		Version: call.Version, Transcript: call.Transcript}}
	if call.Settings.Fixed {
		// No pricing work at all: no history pass, only the window.
		e.Decision = call.decideWith(nil)
		return e, false, call.save(&e, nil)
	}
	// known is the previous decision when it was complete and made for
	// the session as it stands: what the lines stay at while a pass
	// catches up.
	var known *Decision
	var h forecast.History
	if ok && old.Transcript == call.Transcript {
		var saved bool
		if h, saved = SavedHistory(call.Dir, call.ID); saved && !old.Partial && old.For(call) {
			known = &old.Decision
		}
	}
	caughtUp, err := h.UpdateSome(call.Transcript, passSlice)
	if err != nil {
		// Without a history the decision falls back to the caps; the next
		// call starts the pass over.
		h, caughtUp = forecast.History{}, true
	}
	e.Partial = !caughtUp
	e.First, e.TTL1h = h.First, h.TTL1h
	switch {
	case e.Partial && known != nil:
		e.Decision = *known
	case e.Partial:
		// Only the window's evidence so far: no pricing from a history
		// whose latest response is not the session's.
		e.Decision = call.decideWith(&forecast.History{Peak: h.Peak, Window1M: h.Window1M, AutoCompactAt: h.AutoCompactAt})
	default:
		e.Decision = call.decideWith(&h)
	}
	return e, false, call.save(&e, &h)
}

// decideWith applies the rule for call with the history h (nil: fixed
// lines, no pricing).
func (call *Call) decideWith(h *forecast.History) Decision {
	return Decide(call.Input(h))
}

// SavedHistory is the history the session's last recompute saved.
func SavedHistory(dir, id string) (h forecast.History, ok bool) {
	data, err := reading.ReadFile(historyFile(dir, id), reading.MaxCacheFile)
	return h, err == nil && json.Unmarshal(data, &h) == nil
}

// save writes the history, then the entry that was decided from it
// (nothing under NoSave): a call that stops between the two leaves an
// entry that a later recompute replaces, resuming from the history's
// offset.
func (call *Call) save(e *Entry, h *forecast.History) error {
	dir, id := call.Dir, call.ID
	if call.NoSave {
		return nil
	}
	if err := state.Ensure(dir); err != nil {
		return err
	}
	if h != nil {
		hd, _ := json.Marshal(h)
		if err := state.WriteFile(historyFile(dir, id), append(hd, '\n')); err != nil {
			return err
		}
	}
	ed, _ := json.Marshal(e)
	return state.WriteFile(FileName(dir, id), append(ed, '\n'))
}
