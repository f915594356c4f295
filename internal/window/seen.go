package window

import (
	"cmp"
	"path/filepath"
	"slices"
	"sort"
	"time"
)

// Compaction is one automatic compaction of another session: where the
// user's sessions show Claude Code compacting (design §4.1).
type Compaction struct {
	// At is the compact_boundary record's timestamp (RFC 3339).
	At string `json:"at"`
	// Version is the Claude Code version that compacted, Window the
	// session's window then (Standard or OneM).
	Version string `json:"version"`
	Window  int64  `json:"window"`
	// PreTokens is the context Claude Code compacted.
	PreTokens int64  `json:"pre_tokens"`
	Session   string `json:"session"`
	// Row says it came from a committed ledger row, not a transcript.
	Row bool `json:"row,omitempty"`
	// Project is the folder the session ran in (its cwd; a row's, the
	// ledger's project); "" when the record did not say.
	Project string `json:"project,omitempty"`
	// Setting says what of Claude Code's own settings moved the point in
	// that project ("" when nothing did): a compaction teaches only
	// sessions under the same setting, and one under a project's own
	// setting only that project's.
	Setting string `json:"setting,omitempty"`
}

// Observation is the point the user's other sessions give a version and
// window, and what it rests on.
type Observation struct {
	At                    int64
	Compactions, Sessions int
	// Source is PointSessions or PointRows.
	Source string
	// AnyVersion says the compactions were of other versions than the
	// one asked about (none of it was known).
	AnyVersion bool
}

// LatestCount is how many of the latest compactions the point is taken from:
// enough that one request that jumped far past the threshold does not set
// it alone, few enough to follow a threshold tuned server-side.
const LatestCount = 5

// Rows' bounds (design §4.1, as any committed figure): a point taken from
// ledger rows lies within RowsReach of the table's point for a version the
// table knows.
const RowsReach = 20_000

// History is the automatic compactions of the user's other sessions and
// the ledger's rows, indexed once: each record's time parsed once, each
// group sorted once, so that the latest before a time is found by binary
// search and a replay's cost stays linear in its input. It is read-only
// once made and safe to share between goroutines.
type History struct {
	seen, rows *index
}

// index holds compactions by time, and each group Learn asks for as a
// list of positions in time order.
type index struct {
	all    []entry
	groups map[groupKey][]int32
}

type entry struct {
	at int64 // UnixNano of At
	c  Compaction
}

// groupKey is a group of compactions: of one window and setting, of one
// version or any ("" with anyVersion), of one project or any.
type groupKey struct {
	window     int64
	setting    string
	version    string
	anyVersion bool
	project    string
	anyProject bool
}

// NewHistory indexes cs: those with a time that parses and a positive
// preTokens; rows and transcripts apart.
func NewHistory(cs []Compaction) *History {
	var seen, rows []entry
	for _, c := range cs {
		t, ok := parseTime(c.At)
		if !ok || c.PreTokens <= 0 {
			continue
		}
		c.Project = cleanProject(c.Project)
		e := entry{t.UnixNano(), c}
		if c.Row {
			rows = append(rows, e)
		} else {
			seen = append(seen, e)
		}
	}
	return &History{seen: newIndex(seen), rows: newIndex(rows)}
}

// WithRows is h's transcripts with rows' ledger rows: replay indexes the
// transcripts once and each project's rows once.
func (h *History) WithRows(rows *History) *History {
	out := &History{}
	if h != nil {
		out.seen = h.seen
	}
	if rows != nil {
		out.rows = rows.rows
	}
	return out
}

// Len counts the compactions indexed.
func (h *History) Len() int {
	if h == nil {
		return 0
	}
	return h.seen.len() + h.rows.len()
}

func newIndex(es []entry) *index {
	slices.SortStableFunc(es, func(a, b entry) int { return cmp.Compare(a.at, b.at) })
	ix := &index{all: es, groups: map[groupKey][]int32{}}
	for i, e := range es {
		for _, anyV := range []bool{false, true} {
			for _, anyP := range []bool{false, true} {
				k := groupKey{window: e.c.Window, setting: e.c.Setting, anyVersion: anyV, anyProject: anyP}
				if !anyV {
					k.version = e.c.Version
				}
				if !anyP {
					k.project = e.c.Project
				}
				ix.groups[k] = append(ix.groups[k], int32(i))
			}
		}
	}
	return ix
}

func (ix *index) len() int {
	if ix == nil {
		return 0
	}
	return len(ix.all)
}

// latest is the group's LatestCount latest compactions before the time
// before (hasLimit false: of every time), leaving out session's own.
func (ix *index) latest(k groupKey, before int64, hasLimit bool, session string) []Compaction {
	if ix == nil {
		return nil
	}
	g := ix.groups[k]
	end := len(g)
	if hasLimit {
		end = sort.Search(len(g), func(i int) bool { return ix.all[g[i]].at >= before })
	}
	var out []Compaction
	for i := end - 1; i >= 0 && len(out) < LatestCount; i-- {
		if c := ix.all[g[i]].c; c.Session != session || session == "" {
			out = append(out, c)
		}
	}
	return out
}

// Query is what Learn is asked: the point of a version and window, as the
// user's other sessions showed it before the time Before ("" or
// unparsable: of every time), for the session Session (its own
// compactions left out) of the project Project under the setting Setting
// (see Compaction). AnyVersion lets Learn fall back on other versions of
// the window when none of Version is known.
type Query struct {
	Version          string
	Window           int64
	Before           string
	Session, Project string
	Setting          string
	AnyVersion       bool
}

// Learn is the point the user's other sessions give q: the lowest
// preTokens of the latest LatestCount automatic compactions of the
// version and window under the same setting — the same project's
// sessions first, then any project's (a project's own setting teaches
// that project alone) — and, where no transcript has one, the ledger's
// rows, bounded by RowsReach of the table's point. With q.AnyVersion and
// none of the version, the latest of any version of the window. Every
// learned point is bounded to [half the window, the window]. ok is false
// when none matches.
func Learn(h *History, q Query, t *Table) (Observation, bool) {
	if h == nil {
		return Observation{}, false
	}
	limit, hasLimit := parseTime(q.Before)
	before := limit.UnixNano()
	project := cleanProject(q.Project)
	pick := func(ix *index, anyVersion bool) []Compaction {
		k := groupKey{window: q.Window, setting: q.Setting, version: q.Version, anyVersion: anyVersion, project: project}
		if anyVersion {
			k.version = ""
		}
		if project != "" {
			if got := ix.latest(k, before, hasLimit, q.Session); len(got) > 0 {
				return got
			}
		}
		if q.Setting != "" {
			// A project's own setting teaches that project alone.
			return nil
		}
		k.project, k.anyProject = "", true
		return ix.latest(k, before, hasLimit, q.Session)
	}
	for _, anyVersion := range []bool{false, true} {
		if anyVersion && !q.AnyVersion {
			break
		}
		src, got := PointSessions, pick(h.seen, anyVersion)
		if len(got) == 0 {
			src, got = PointRows, pick(h.rows, anyVersion)
		}
		if len(got) > 0 {
			o := observe(got, src, q, t)
			o.AnyVersion = anyVersion
			return o, true
		}
	}
	return Observation{}, false
}

// observe is the point got gives: their lowest preTokens, bounded.
func observe(got []Compaction, src string, q Query, t *Table) Observation {
	o := Observation{At: got[0].PreTokens, Compactions: len(got), Source: src}
	sessions := map[string]bool{}
	for _, c := range got {
		o.At = min(o.At, c.PreTokens)
		sessions[c.Session] = true
	}
	o.Sessions = len(sessions)
	lo, hi := q.Window/2, q.Window
	if src == PointRows {
		if r, ok := t.Lookup(q.Version); ok {
			p := q.Window - r.Below
			lo, hi = max(lo, p-RowsReach), min(hi, p+RowsReach)
		}
	}
	o.At = Bound(o.At, lo, hi)
	return o
}

// Bound is at within [lo, hi].
func Bound(at, lo, hi int64) int64 {
	return min(max(at, lo), hi)
}

// Recent lists what Learn may take for a session of version before the
// time before: per window and setting, the latest of the version and of
// any version, of the project and of any; the files they came from are
// what a cached point depends on.
func (h *History) Recent(version, before, session, project string) []Compaction {
	if h == nil {
		return nil
	}
	limit, hasLimit := parseTime(before)
	project = cleanProject(project)
	var out []Compaction
	for _, ix := range []*index{h.seen, h.rows} {
		if ix == nil {
			continue
		}
		for k := range ix.groups {
			mine := (k.anyVersion || k.version == version) && (k.anyProject || k.project == project)
			if mine {
				out = append(out, ix.latest(k, limit.UnixNano(), hasLimit, session)...)
			}
		}
	}
	return out
}

func parseTime(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// cleanProject is a project folder as compactions are matched on it.
func cleanProject(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Clean(p)
}

// WindowAt is the window a compaction at preTokens was taken on, given
// whether its session had shown the 1M window before it.
func WindowAt(preTokens int64, saw1M bool) int64 {
	if saw1M || preTokens > Standard {
		return OneM
	}
	return Standard
}
