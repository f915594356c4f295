package fuse

// The tally counts what a session has spent, in dollars at API rates and
// in tokens, reading the session's transcript and its subagents' forwards
// from where the last call stopped: a call costs what was appended since.
// One response is one message.id, its last record counting; a response
// held in two files (an inline sidechain and its subagents/ file) counts
// once; a model the price table does not know counts tokens, no dollars.
//
// Spend only grows (design §13): what a file that shrank or was rewritten
// counted is kept (Kept); a record with negative, absurd or unpriceable
// usage counts nothing; a later record of a response never counts less.
// Each is noted in Tampered, which budget status shows.

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/fnv"
	"io/fs"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// Sum is spend: dollars at API rates over the priced responses, tokens
// over all of them.
type Sum struct {
	USD    float64 `json:"usd"`
	Tokens int64   `json:"tokens"`
	// UnpricedTokens are the tokens of responses whose model has no
	// price: counted in Tokens, not in USD.
	UnpricedTokens int64 `json:"unpricedTokens,omitempty"`
	Responses      int64 `json:"responses"`
}

// Add returns s plus t.
func (s Sum) Add(t Sum) Sum {
	return Sum{s.USD + t.USD, s.Tokens + t.Tokens, s.UnpricedTokens + t.UnpricedTokens, s.Responses + t.Responses}
}

// Sub returns s minus t.
func (s Sum) Sub(t Sum) Sum {
	return Sum{s.USD - t.USD, s.Tokens - t.Tokens, s.UnpricedTokens - t.UnpricedTokens, s.Responses - t.Responses}
}

// sumOK reports whether s is spend counting can make: finite, not
// negative.
func sumOK(s Sum) bool {
	return !math.IsNaN(s.USD) && !math.IsInf(s.USD, 0) && s.USD >= 0 && s.Tokens >= 0 && s.UnpricedTokens >= 0 && s.Responses >= 0
}

// Pricer prices one response's usage for its model; ok false for a model
// it does not know.
type Pricer func(model string, u *transcript.Usage) (usd float64, ok bool)

// sum is the spend of one response: its tokens, and its dollars when
// price knows its model (priced), else the same tokens unpriced.
func (price Pricer) sum(m *transcript.Message) (s Sum, priced bool) {
	u := m.Usage
	s = Sum{Tokens: u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens + u.OutputTokens, Responses: 1}
	if s.USD, priced = price(m.Model, u); !priced {
		s.USD, s.UnpricedTokens = 0, s.Tokens
	}
	return s, priced
}

// Tally is a session's spend so far and where each of its files was read
// to, saved between hook calls as one JSON object (<session_id>.spend).
type Tally struct {
	// Format is tallyFormat in a saved tally.
	Format int `json:"format"`
	// Transcript is the session's own transcript, so the CLI can find it.
	Transcript string `json:"transcript"`
	// Files holds one entry per transcript read, keyed by its path.
	Files map[string]*File `json:"files"`
	// Inline holds the hashes (idHash, hashSize bytes each) of the
	// latest keepInline sidechain responses counted in the main
	// transcript, so that their copies in a subagent's file are skipped.
	Inline []byte `json:"inline,omitempty"`
	// Unpriced lists the models met that have no price.
	Unpriced []string `json:"unpriced,omitempty"`
	// Notes are what the fuse has announced and for which period, so a
	// warning fires once; they change under the tally's lock.
	Notes map[string]string `json:"notes,omitempty"`
	// Kept is, by UTC day, what files counted before they shrank or were
	// rewritten: it stays counted.
	Kept map[string]Sum `json:"kept,omitempty"`
	// Tampered lists what the tally refused to let lower it.
	Tampered []string `json:"tampered,omitempty"`
	// Floor, when set, is what the tally had counted before its state
	// was removed, as the witness kept it (witness.go): Total is never
	// less.
	Floor *Sum `json:"floor,omitempty"`
	// from, when set, leaves out responses stamped before it (Sessions).
	from time.Time
}

// File is how far one transcript was read (a file rewritten under the
// same name is read again) and what it held: its spend by UTC day
// (YYYY-MM-DD) and, for the burn rate, by Unix minute over the last
// burnKeep minutes; its latest responses; Sub marks a subagent's file.
type File struct {
	reading.Mark
	Days    map[string]Sum `json:"days"`
	Minutes map[int64]Sum  `json:"minutes,omitempty"`
	Recent  []recentRecord `json:"recent,omitempty"`
	Sub     bool           `json:"sub,omitempty"`
}

// total is the file's spend over all days.
func (f *File) total() Sum {
	var s Sum
	for _, d := range f.Days {
		s = s.Add(d)
	}
	return s
}

// keepInline is how many inline sidechain responses a tally remembers: a
// subagent's file is written when it ends, at the latest.
const keepInline = 512

// hashSize is the size of an idHash.
const hashSize = 8

// idHash is the hash a message id is remembered by.
func idHash(id string) []byte {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum(nil)
}

// countedInline reports whether a response was counted inline.
func (t *Tally) countedInline(h []byte) bool {
	for c := range slices.Chunk(t.Inline, hashSize) {
		if bytes.Equal(c, h) {
			return true
		}
	}
	return false
}

// recentRecord remembers a response lately counted in a file, so a later
// record of the same id replaces it: the last record of an id counts.
type recentRecord struct {
	ID     string `json:"id"`
	Day    string `json:"day"`
	Minute int64  `json:"minute"`
	Sum    Sum    `json:"sum"`
}

// keepRecent is how many recent responses a file remembers: Claude Code
// writes the records of one response together, with at most a parallel
// call's tool results between them.
const keepRecent = 4

// burnKeep is how many minutes of per-minute spend a file keeps.
const burnKeep = 15

// Total returns the spend over every file.
func (t *Tally) Total() Sum {
	var s Sum
	for _, k := range t.Kept {
		s = s.Add(k)
	}
	for _, f := range t.Files {
		s = s.Add(f.total())
	}
	if f := t.Floor; f != nil {
		s = s.Max(*f)
	}
	return s
}

// Max is the larger of s and t, figure by figure.
func (s Sum) Max(t Sum) Sum {
	return Sum{USD: max(s.USD, t.USD), Tokens: max(s.Tokens, t.Tokens),
		UnpricedTokens: max(s.UnpricedTokens, t.UnpricedTokens), Responses: max(s.Responses, t.Responses)}
}

// Day returns the spend on one UTC day (YYYY-MM-DD).
func (t *Tally) Day(day string) Sum {
	s := t.Kept[day]
	for _, f := range t.Files {
		s = s.Add(f.Days[day])
	}
	return s
}

// Subagents returns the spend in subagents' own files.
func (t *Tally) Subagents() Sum {
	var s Sum
	for _, f := range t.Files {
		if f.Sub {
			s = s.Add(f.total())
		}
	}
	return s
}

// Since returns the spend of responses stamped at or after from (to the
// minute).
func (t *Tally) Since(from time.Time) Sum {
	m0 := from.Unix() / 60
	var s Sum
	for _, f := range t.Files {
		for m, v := range f.Minutes {
			if m >= m0 {
				s = s.Add(v)
			}
		}
	}
	return s
}

// Files returns the transcripts of a session: its own, then its
// subagents' (transcript.SubagentFiles).
func Files(transcriptPath string) []string {
	return append([]string{transcriptPath}, transcript.SubagentFiles(transcriptPath)...)
}

// Update reads what each of files holds past its saved offset, to the
// end, adds it to t, and reports whether t changed.
func (t *Tally) Update(files []string, price Pricer) (changed bool) {
	return t.Read(files, price, &reading.Pass{}, "").Changed
}

// Progress is what one Read did: whether the tally changed, whether a
// line read held the tool_use_id asked for, and whether the pass ended
// before some file's end (its budget or deadline spent).
type Progress struct {
	Changed, Seen, Behind bool
}

// Read is Update within pass's bounds, also looking for the tool call
// toolUseID ("" for none) in the lines it reads. The first of files is
// the session's own transcript, the others subagents'. A file that
// shrank or was rewritten is read again from its start, what it counted
// kept; a file that cannot be read keeps what it held.
func (t *Tally) Read(files []string, price Pricer, pass *reading.Pass, toolUseID string) (p Progress) {
	if t.Files == nil {
		t.Files = map[string]*File{}
	}
	if len(files) > 0 && t.Transcript != files[0] {
		t.Transcript, p.Changed = files[0], true
	}
	var needle []byte
	if toolUseID != "" {
		needle = []byte(`"` + toolUseID + `"`)
	}
	for i, name := range files {
		if pass.Spent() {
			p.Behind = true
			break
		}
		sub := i > 0
		st := t.Files[name]
		if st == nil {
			st = &File{Sub: sub}
		}
		was := st.Mark
		end, err := pass.Read(name, &st.Mark, func() {
			t.keep(name)
			*st = File{Sub: sub}
		}, func(line []byte) bool {
			if bytes.Contains(line, []byte(`"usage"`)) {
				p.Seen = p.Seen || needle != nil && bytes.Contains(line, needle)
				transcript.Decode(line, func(rec *transcript.Record) { t.count(st, rec, sub, price) })
			}
			return true
		})
		if err != nil && !errors.Is(err, reading.ErrLate) {
			continue // unreadable: it keeps what it held
		}
		p.Behind = p.Behind || !end
		if t.Files[name] != st {
			t.Files[name], p.Changed = st, true
		}
		if st.Mark != was {
			st.trim()
			p.Changed = true
		}
	}
	return p
}

// keep moves what a file counted into Kept, before it is read again: a
// transcript that shrank or was rewritten lowers nothing.
func (t *Tally) keep(name string) {
	f := t.Files[name]
	if f == nil {
		return
	}
	if !f.Sub {
		// Only the main transcript holds inline sidechains.
		t.Inline = nil
	}
	if t.Kept == nil {
		t.Kept = map[string]Sum{}
	}
	for day, s := range f.Days {
		t.Kept[day] = t.Kept[day].Add(s)
	}
	t.tamper("a transcript shrank or was rewritten; what it counted before still counts")
	delete(t.Files, name)
}

// tamper notes what the tally refused to let lower it.
func (t *Tally) tamper(what string) {
	if !slices.Contains(t.Tampered, what) && len(t.Tampered) < 4 {
		t.Tampered = append(t.Tampered, what)
	}
}

// maxUsage bounds each token count of one response: a hundred times the
// largest context window. Past it, or below zero, a record is not one a
// model wrote.
const maxUsage = 100_000_000

// usageOK reports whether every count of u is one a response can have.
func usageOK(u *transcript.Usage) bool {
	ns := []int64{u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens}
	if c := u.CacheCreation; c != nil {
		ns = append(ns, c.Ephemeral5m, c.Ephemeral1h)
	}
	for _, n := range ns {
		if n < 0 || n > maxUsage {
			return false
		}
	}
	return true
}

// count adds one record: an assistant response with usage, own or a
// subagent's, not the synthetic placeholder.
func (t *Tally) count(st *File, rec *transcript.Record, sub bool, price Pricer) {
	if rec.Type != "assistant" || rec.Message == nil || rec.Message.Usage == nil || rec.Message.Model == transcript.Synthetic {
		return
	}
	if !t.from.IsZero() {
		// A response without a readable stamp counts: spend only grows.
		if at, err := time.Parse(time.RFC3339Nano, rec.Timestamp); err == nil && at.Before(t.from) {
			return
		}
	}
	id := rec.Message.ID
	// Claude Code up to 2.0 wrote a subagent's responses inline as they
	// came, and into its own file when it finished (2.1 writes only the
	// file): the inline copy is the one remembered and counted.
	if id != "" && rec.IsSidechain && !sub {
		if h := idHash(id); !t.countedInline(h) {
			t.Inline = append(t.Inline, h...)
			if keep := keepInline * hashSize; len(t.Inline) > keep {
				t.Inline = append(t.Inline[:0], t.Inline[len(t.Inline)-keep:]...)
			}
		}
	}
	if id != "" && sub && t.countedInline(idHash(id)) {
		return
	}
	if !usageOK(rec.Message.Usage) {
		t.tamper("a record with negative or absurd usage counted nothing")
		return
	}
	s, priced := price.sum(rec.Message)
	if !sumOK(s) {
		t.tamper("a record whose price is not a number counted nothing")
		return
	}
	if !priced && !slices.Contains(t.Unpriced, rec.Message.Model) && len(t.Unpriced) < 8 {
		t.Unpriced = append(t.Unpriced, rec.Message.Model)
	}
	day, minute := stamp(rec.Timestamp)
	if id != "" {
		if i := slices.IndexFunc(st.Recent, func(r recentRecord) bool { return r.ID == id }); i >= 0 {
			// The last record of an id counts, never for less: its output
			// count only grows.
			old := st.Recent[i]
			if s.USD < old.Sum.USD || s.Tokens < old.Sum.Tokens {
				return
			}
			st.Days[old.Day] = st.Days[old.Day].Sub(old.Sum)
			if m, ok := st.Minutes[old.Minute]; ok {
				st.Minutes[old.Minute] = m.Sub(old.Sum)
			}
			st.Recent = slices.Delete(st.Recent, i, i+1)
		}
		st.Recent = append(st.Recent, recentRecord{id, day, minute, s})
		if len(st.Recent) > keepRecent {
			st.Recent = st.Recent[len(st.Recent)-keepRecent:]
		}
	}
	if st.Days == nil {
		st.Days = map[string]Sum{}
	}
	st.Days[day] = st.Days[day].Add(s)
	if minute > 0 {
		if st.Minutes == nil {
			st.Minutes = map[int64]Sum{}
		}
		st.Minutes[minute] = st.Minutes[minute].Add(s)
	}
}

// trim keeps the per-minute spend of the last burnKeep minutes of the
// file's own clock (its latest response).
func (f *File) trim() {
	var last int64
	for m := range f.Minutes {
		last = max(last, m)
	}
	for m := range f.Minutes {
		if m < last-burnKeep {
			delete(f.Minutes, m)
		}
	}
}

// stamp returns a record's UTC day and Unix minute; a missing or
// unreadable timestamp is day "" and minute 0.
func stamp(ts string) (string, int64) {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return "", 0
	}
	t = t.UTC()
	return t.Format(time.DateOnly), t.Unix() / 60
}

// Load reads a session's saved tally in the fuse's folder dir; a missing
// or unreadable one is an empty one.
func Load(dir, session string) *Tally {
	fo, err := openFolder(dir, false)
	if err != nil {
		return &Tally{Files: map[string]*File{}}
	}
	defer fo.close()
	t, err := loadTally(fo, session)
	if err != nil {
		return &Tally{Files: map[string]*File{}}
	}
	return t
}

// tallyFormat is the saved tally's format: a file of another format is
// no tally, and the session's files are read again from their start.
const tallyFormat = 3

// errDamaged reports a saved tally that does not parse or holds figures
// no counting makes.
var errDamaged = errors.New("the saved tally is damaged")

// loadTally reads a session's saved tally: an empty one when there is
// none (or it is of another format), an error when it cannot be read
// (folder.read) or is damaged.
func loadTally(fo *folder, session string) (*Tally, error) {
	data, err := fo.read(session+SpendSuffix, reading.MaxTally)
	if errors.Is(err, fs.ErrNotExist) {
		return &Tally{Files: map[string]*File{}}, nil
	}
	if err != nil {
		return nil, err
	}
	t := &Tally{}
	if json.Unmarshal(data, t) != nil {
		return nil, errDamaged
	}
	if t.Format != tallyFormat {
		return &Tally{Files: map[string]*File{}}, nil
	}
	if t.Files == nil {
		t.Files = map[string]*File{}
	}
	if !t.sane() {
		return nil, errDamaged
	}
	return t, nil
}

// sane reports whether every figure of a loaded tally is one counting
// could make (sumOK): a tally that is not is refused, never summed.
func (t *Tally) sane() bool {
	sums := slices.Collect(maps.Values(t.Kept))
	if t.Floor != nil {
		sums = append(sums, *t.Floor)
	}
	for _, f := range t.Files {
		if f == nil {
			return false
		}
		sums = slices.AppendSeq(sums, maps.Values(f.Days))
	}
	return !slices.ContainsFunc(sums, func(s Sum) bool { return !sumOK(s) })
}

// encode is the saved form of t.
func (t *Tally) encode() []byte {
	t.Format = tallyFormat
	data, _ := json.Marshal(t)
	return append(data, '\n')
}

// TablePricer prices each response at its model's and speed's row of t;
// a nil table prices nothing.
func TablePricer(t *prices.Table) Pricer {
	if t == nil {
		t = &prices.Table{}
	}
	return func(model string, u *transcript.Usage) (float64, bool) {
		row, ok := t.Lookup(model, u.Speed)
		if !ok {
			return 0, false
		}
		return row.Cost(u), true
	}
}

// hookPricer prices as TablePricer over the table a hook call prices
// with (prices.ForHook: the merged table the full program cached in the
// fuse's folder while it answers for the override files, else the
// built-in one), read at the first response it prices.
func hookPricer(fo *folder, root string, getenv func(string) string) Pricer {
	var price Pricer
	read := func() ([]byte, error) { return fo.read(prices.CacheName, reading.MaxCacheFile) }
	return func(model string, u *transcript.Usage) (float64, bool) {
		if price == nil {
			price = TablePricer(prices.ForHook(read, prices.OverrideFiles(root, getenv)))
		}
		return price(model, u)
	}
}
