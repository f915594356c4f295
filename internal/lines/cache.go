package lines

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/history"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/window"
)

// Regrowth is the growth of the reading after which the lines are
// recomputed.
const Regrowth = 10_000

// PassSlice bounds the transcript bytes one call's history pass reads. A
// slice must finish well inside the hook's pricing budget (under a
// second, hook_deadline.go): a call that runs out of it answers with the
// fixed lines and exits, and its slice is lost. 64 MB took ~0.8 s here on
// a 100 MB transcript, too close; 16 MB takes a fifth of that, and a 1 GB
// transcript catches up in 64 calls instead of one call of seconds.
const PassSlice = 16 << 20

// passSlice is PassSlice, smaller in tests.
var passSlice int64 = PassSlice

// version changes the Key when the cache's meaning changes between builds.
const version = "3"

// Entry is what a session's .line file holds.
type Entry struct {
	Key      string   `json:"key"`
	Reading  int64    `json:"reading"`
	Decision Decision `json:"decision"`
	// Transcript is the path History was read from.
	Transcript string          `json:"transcript"`
	History    history.History `json:"history"`
	// Partial says the pass has not caught up with the transcript: the
	// Decision is provisional and the next call resumes the pass.
	Partial bool `json:"partial,omitempty"`
}

// Call is one call's view of a session: a hook call's, the status
// line's, the cold check's.
type Call struct {
	// Dir is the state folder, ID the session id (a plain name).
	Dir, ID string
	// Root is the project root, Transcript the transcript's path.
	Root, Transcript string
	Settings         config.Settings
	Getenv           func(string) string
	// Reading and RequestedModel are the current reading and its record's
	// requestedModel.
	Reading        int64
	RequestedModel string
	// Version is the Claude Code version of the reading's record.
	Version string
	// NoSave makes DecideCached write nothing: a caller other than the
	// PostToolUse hook (the cold check on a prompt) reads the lines the
	// hook holds and must not move the cache they come from, or the
	// hook's next notice would depend on when the user typed.
	NoSave bool
	// Window is the window the status line recorded for the session
	// (window.FileName), when WindowKnown: a caller that has just read or
	// written that file passes its value on instead of a second read.
	Window      int64
	WindowKnown bool
	// Table is the price table a recompute prices with; nil is the
	// built-in table.
	Table *prices.Table
}

// FileName is the cache file of a session.
func FileName(dir, id string) string {
	return filepath.Join(dir, id+state.LineSuffix)
}

// Key names everything a Decision depends on besides the reading and the
// transcript, cheaply: it is computed on every hook call.
func (call *Call) Key() string {
	// strconv, not fmt: the same text, without fmt's reflection on every
	// hook call.
	st := call.Settings
	b := make([]byte, 0, 512)
	num := func(n int64) { b = append(strconv.AppendInt(b, n, 10), ' ') }
	b = append(b, "v"+version+"|caps "...)
	num(config.WarnCap)
	b = strconv.AppendInt(b, config.PauseCap, 10)
	b = append(b, "|env "...)
	num(st.Warn)
	b = strconv.AppendInt(b, st.Pause, 10)
	b = append(b, "|usd "...)
	b = append(strconv.AppendFloat(b, st.WarnSaving, 'g', -1, 64), ' ')
	b = strconv.AppendFloat(b, st.PauseSaving, 'g', -1, 64)
	b = append(b, "|fixed "...)
	b = strconv.AppendBool(b, st.Fixed)
	b = append(b, "|window "...)
	b = strconv.AppendInt(b, st.Window, 10)
	b = append(b, "|rate "+st.Rate+"|compact "...)
	b = append(strconv.AppendQuote(b, call.Getenv(window.EnvPctOverride)), ' ')
	b = strconv.AppendQuote(b, call.Getenv(window.EnvCompactLimit))
	b = append(b, "|cc "+call.Version+"|as_of "+prices.EmbeddedAsOf()+"|"...)
	for _, name := range prices.OverrideFiles(call.Root, call.Getenv) {
		if fi, err := os.Stat(name); err == nil {
			b = append(b, name+" "...)
			num(fi.Size())
			b = append(strconv.AppendInt(b, fi.ModTime().UnixNano(), 10), '|')
		}
	}
	b = append(b, "statusline "...)
	b = append(strconv.AppendInt(b, call.statusline(), 10), '|')
	b = append(b, "reorient "+ReorientStamp(call.Root, call.ID, call.Transcript)+"|transcript "+call.Transcript...)
	return string(b)
}

func (call *Call) statusline() int64 {
	if call.WindowKnown {
		return call.Window
	}
	return window.ReadFile(window.FileName(call.Dir, call.ID))
}

// Load reads a cache file; ok is false when it is missing or unreadable.
func Load(name string) (e Entry, ok bool) {
	c, ok := load(name)
	if !ok || !c.history(&e.History) {
		return Entry{}, false
	}
	e.Key, e.Reading, e.Decision, e.Transcript, e.Partial = c.Key, c.Reading, c.Decision, c.Transcript, c.Partial
	return e, true
}

// cached is an Entry with its History left undecoded: a hit, most calls,
// does not need it, and a fresh process pays for every type it decodes.
type cached struct {
	Key        string          `json:"key"`
	Reading    int64           `json:"reading"`
	Decision   Decision        `json:"decision"`
	Transcript string          `json:"transcript"`
	History    json.RawMessage `json:"history"`
	Partial    bool            `json:"partial,omitempty"`
	// headless: the file lacks some header line (an older build wrote it).
	headless bool
}

// load reads a cache file: its header line (see Hit), then the entry.
func load(name string) (c cached, ok bool) {
	data, err := reading.ReadFile(name, reading.MaxCacheFile)
	if err != nil {
		return cached{}, false
	}
	_, js, whole := entryJSON(data)
	if json.Unmarshal(js, &c) != nil {
		return cached{}, false
	}
	c.headless = !whole
	// The cache is a file like any other: lines no computation gives (a
	// line at or under zero would pause every call) are a miss.
	if ls := c.Decision.Lines.Tokens(); ls.Warn <= 0 || ls.Pause <= 0 {
		return cached{}, false
	}
	return c, true
}

// history decodes the History into h; false when it does not decode.
func (c *cached) history(h *history.History) bool {
	if len(c.History) == 0 {
		return true
	}
	return json.Unmarshal(c.History, h) == nil
}

// Fresh reports whether e still answers for a reading under key.
func (e *Entry) Fresh(key string, reading int64) bool {
	return !e.Partial && e.Key == key && Fresh(e.Reading, reading)
}

// Fresh reports whether lines computed at reading at still hold at
// reading now, whatever else is unchanged: the reading has neither grown
// Regrowth tokens past it, nor dropped below it, nor crossed 200,000 from
// below (evidence of a 1M window). Replay applies the same rule.
func Fresh(at, now int64) bool {
	return now >= at && now < at+Regrowth && !(now > window.Standard && at <= window.Standard)
}

// DecideCached returns the session's Decision: the cached one when fresh, else a
// new one, saved; while the history's pass is catching up (see Bounded
// passes) a provisional one. A price override that does not parse is ignored (the
// hook must not fail; `lines` reports it). hit reports a cache hit. The
// error is only the save's: the Decision is good either way.
func DecideCached(call *Call) (d Decision, hit bool, err error) {
	e, hit, err := call.decide()
	return e.Decision, hit, err
}

// Peek is DecideCached without saving (NoSave), and with the history the
// decision came from: what the cold check on a prompt prices with.
func Peek(call *Call) (Decision, history.History) {
	ps := *call
	ps.NoSave = true
	if c, ok := load(FileName(call.Dir, call.ID)); ok && c.hit(ps.Key(), call.Reading) {
		var h history.History
		c.history(&h)
		return c.Decision, h
	}
	e, _, _ := ps.decide()
	return e.Decision, e.History
}

// hit reports whether the cached entry answers for a reading under key.
func (c *cached) hit(key string, reading int64) bool {
	return !c.Partial && c.Key == key && Fresh(c.Reading, reading)
}

// decide is DecideCached, returning the whole entry; on a hit only its Decision
// is filled (the history stays undecoded, as the hot path wants).
func (call *Call) decide() (Entry, bool, error) {
	name := FileName(call.Dir, call.ID)
	key := call.Key()
	c, ok := load(name)
	if ok && c.hit(key, call.Reading) {
		if c.headless && !call.NoSave {
			// Written by an older build: write the header once, so that
			// the next calls are answered by Hit and the status line. The
			// cold line needs the history; one that does not decode
			// writes none of it, as Load, failing, gives the cold mark
			// none.
			e := Entry{Key: c.Key, Reading: c.Reading, Decision: c.Decision}
			var h history.History
			if c.history(&h) {
				e.History = h
			}
			if data, err := reading.ReadFile(name, reading.MaxCacheFile); err == nil {
				_, js, _ := entryJSON(data)
				state.WriteFile(name, append(headers(&e), js...))
			}
		}
		return Entry{Decision: c.Decision}, true, nil
	}
	e := Entry{Transcript: call.Transcript}
	// known is the previous decision when it was complete and made under
	// this key: what the lines stay at while a pass catches up.
	var known *Decision
	if ok && c.Transcript == call.Transcript && c.history(&e.History) {
		if !c.Partial && c.Key == key {
			known = &c.Decision
		}
	} else {
		e.History = history.History{}
	}
	caughtUp, err := e.History.UpdateSome(call.Transcript, passSlice)
	if err != nil {
		// Without a history the decision falls back to the caps; the next
		// call starts the pass over.
		e.History, caughtUp = history.History{}, true
	}
	e.Key, e.Reading, e.Partial = key, call.Reading, !caughtUp
	if e.Partial && known != nil {
		e.Decision = *known
		return e, false, call.save(&e, name)
	}
	h := &e.History
	if e.Partial {
		// Only the window's evidence so far: no pricing from a history
		// whose latest response is not the session's.
		h = &history.History{Peak: h.Peak, Window1M: h.Window1M, AutoCompactAt: h.AutoCompactAt}
	}
	table := call.Table
	if table == nil {
		table, _ = prices.Embedded()
	}
	e.Decision = Decide(Input{
		Settings: call.Settings, Table: table, History: h,
		Reading: call.Reading, RequestedModel: call.RequestedModel,
		Root: call.Root, SessionID: call.ID, TranscriptPath: call.Transcript,
		StatuslineWindow: call.statusline(), Getenv: call.Getenv, Version: call.Version,
	})
	return e, false, call.save(&e, name)
}

// save writes the entry to the session's cache file, unless NoSave.
func (call *Call) save(e *Entry, name string) error {
	if call.NoSave {
		return nil
	}
	return e.save(call.Dir, name)
}

// save writes the entry to the cache file name in the state folder dir.
func (e *Entry) save(dir, name string) error {
	data, _ := json.Marshal(e)
	if err := state.Ensure(dir); err != nil {
		return err
	}
	// A provisional entry has no header: Hit must not answer from it.
	var head []byte
	if !e.Partial {
		head = headers(e)
	}
	return state.WriteFile(name, append(append(head, data...), '\n'))
}
