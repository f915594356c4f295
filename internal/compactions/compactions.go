// Package compactions finds where the user's other sessions compacted
// (design §4.1): the automatic compactions in Claude Code's transcripts,
// kept in an index in the state folder (state.Compactions) so that each
// recompute reads only what was appended since, and those the ledger's
// rows record. Package window turns them into a compaction point.
package compactions

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/window"
	"github.com/muthur/context-budget/ledger"
)

// Budget bounds the transcript bytes one Update reads: an index that
// starts empty on a large projects folder fills over several recomputes,
// the most recently changed transcripts first.
const Budget = 32 << 20

// Index is what was found in each transcript, by path.
type Index struct {
	Files map[string]*File `json:"files"`
}

// File is one transcript as far as it was read.
type File struct {
	reading.Mark
	// Stamp is the size and time the file had when last read to its end;
	// an unchanged stamp is not read again.
	Stamp string `json:"stamp"`
	// Saw1M says the transcript showed the 1M window so far.
	Saw1M       bool                `json:"saw_1m,omitempty"`
	Compactions []window.Compaction `json:"compactions,omitempty"`
}

// Load reads the index at name; a missing or unreadable one is empty.
func Load(name string) *Index {
	ix, ok := state.FromJSON[Index](reading.ReadFile(name, reading.MaxCompactionIndex))
	if !ok || ix.Files == nil {
		return &Index{Files: map[string]*File{}}
	}
	return &ix
}

// Save writes the index at name, a file of a state folder, atomically.
func (ix *Index) Save(name string) error { return state.WriteJSON(name, ix) }

// Transcripts lists the main transcripts under Claude Code's projects
// folder: <projects>/<project>/<session>.jsonl.
func Transcripts(projects string) []string {
	names, _ := filepath.Glob(filepath.Join(projects, "*", "*.jsonl"))
	return names
}

// Update brings the index up to date with files, reading at most budget
// bytes (0: no bound), the most recently changed files first; files no
// longer listed are dropped. It reports whether anything changed.
func (ix *Index) Update(files []string, budget int64) bool {
	changed := false
	listed := map[string]bool{}
	type todo struct {
		name, stamp string
		mod         int64
	}
	var work []todo
	for _, name := range files {
		listed[name] = true
		fi, err := os.Stat(name)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		stamp := stampOf(fi)
		if f := ix.Files[name]; f != nil && f.Stamp == stamp {
			continue
		}
		work = append(work, todo{name, stamp, fi.ModTime().UnixNano()})
	}
	for name := range ix.Files {
		if !listed[name] {
			delete(ix.Files, name)
			changed = true
		}
	}
	slices.SortFunc(work, func(a, b todo) int { return cmp.Compare(b.mod, a.mod) })
	pass := reading.Pass{Limit: budget}
	for _, w := range work {
		if pass.Spent() {
			break
		}
		f := ix.Files[w.name]
		if f == nil {
			f = &File{}
		}
		if f.read(&pass, w.name, w.stamp) {
			ix.Files[w.name] = f
		} else {
			delete(ix.Files, w.name)
		}
		changed = true
	}
	return changed
}

// read reads on in the file name from where f stopped, within pass, and
// stamps f when it reached the end; false when the file could not be read.
func (f *File) read(pass *reading.Pass, name, stamp string) bool {
	end, err := pass.Read(name, &f.Mark, func() { *f = File{} }, f.add)
	if err != nil {
		return false
	}
	if end {
		f.Stamp = stamp
	}
	return true
}

// UpdateAll reads files whole into an index that holds none of them yet,
// workers files at a time (0: one per CPU): replay's history, indexed
// once before the sessions are replayed.
func (ix *Index) UpdateAll(files []string, workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	got := make([]*File, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(files), 1)) {
		wg.Go(func() {
			for i := range next {
				f := &File{}
				if f.read(&reading.Pass{}, files[i], "") {
					got[i] = f
				}
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, f := range got {
		if f != nil {
			ix.Files[files[i]] = f
		}
	}
}

func stampOf(fi os.FileInfo) string {
	return strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}

// maxIndexedLine bounds the lines the index searches: a compaction
// boundary is about half a kilobyte, an API request and many of a
// response's records (each block is one) little more, while half a
// transcript's bytes lie in longer lines — tools' outputs, files written
// whole — which need no search.
const maxIndexedLine = 16 << 10

// add takes one line of the transcript: a compaction boundary, or the
// evidence of the 1M window that tells which window later compactions
// were taken on.
func (f *File) add(line []byte) bool {
	if len(line) > maxIndexedLine {
		// A tool's output or a long reply: no record the index reads.
		return true
	}
	boundary := bytes.Contains(line, []byte(`"compact_boundary"`))
	oneM := !f.Saw1M && (bytes.Contains(line, []byte(`[1m]"`)) || bytes.Contains(line, []byte(transcript.Beta1MWord)))
	if !boundary && !oneM {
		return true
	}
	transcript.Decode(line, func(r *transcript.Record) {
		if transcript.Says1M(r, line) || transcript.Asks1M(r.RequestedModel) {
			f.Saw1M = true
		}
		if c, ok := Of(r, f.Saw1M); ok {
			f.Compactions = append(f.Compactions, c)
		}
	})
	return true
}

// Of is the automatic compaction a record is, on a session that had (or
// had not) shown the 1M window before it; ok is false for any other
// record.
func Of(r *transcript.Record, saw1M bool) (window.Compaction, bool) {
	m := r.CompactMetadata
	if r.Subtype != "compact_boundary" || m == nil || m.Trigger != "auto" || m.PreTokens <= 0 || r.Version == "" || r.Timestamp == "" {
		return window.Compaction{}, false
	}
	return window.Compaction{At: r.Timestamp, Version: r.Version, Window: window.WindowAt(m.PreTokens, saw1M),
		PreTokens: m.PreTokens, Session: r.SessionID, Project: r.Cwd}, true
}

// Seen lists the index's compactions and the transcript each session's
// came from.
func (ix *Index) Seen() (seen []window.Compaction, files map[string]string) {
	files = map[string]string{}
	for name, f := range ix.Files {
		for _, c := range f.Compactions {
			seen = append(seen, c)
			files[c.Session] = name
		}
	}
	return seen, files
}

// Rows lists the automatic compactions the ledger rows under root record,
// of the project root. A row written before rows recorded the version
// and window gives none.
func Rows(root string) []window.Compaction {
	if root == "" {
		return nil
	}
	rd, err := ledger.NewReader(ledger.Dir(root))
	if err != nil {
		return nil
	}
	var out []window.Compaction
	for {
		r, err := rd.Read()
		if err != nil {
			break
		}
		for _, c := range r.Compactions {
			if c.Trigger == "auto" && c.Window > 0 && c.PreTokens > 0 {
				out = append(out, window.Compaction{At: c.At, Version: c.Version, Window: c.Window,
					PreTokens: c.PreTokens, Session: r.SessionID, Row: true, Project: root})
			}
		}
	}
	return out
}

// Settings finds what moves Claude Code's compaction point in each
// project, reading each project's settings files once; safe for
// concurrent use.
type Settings struct {
	config string
	getenv func(string) string
	mu     sync.Mutex
	of     map[string]string
}

// NewSettings reads the settings under the Claude Code config folder
// configDir ("": none, only getenv) and each project's own, over the
// environment getenv.
func NewSettings(configDir string, getenv func(string) string) *Settings {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &Settings{config: configDir, getenv: getenv, of: map[string]string{}}
}

// Of says what moves the compaction point in the project at root ("" when
// nothing does): the compaction variables of the environment its hooks
// see and its settings' autoCompactWindow, top-level or for any model (a
// compaction's model is not known, so a per-model value marks them all).
func (s *Settings) Of(root string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.of[root]; ok {
		return v
	}
	getenv := s.getenv
	var parts []string
	if s.config != "" {
		getenv, _ = settings.Env(s.getenv, s.config, root)
		top, set, byModel := settings.CompactWindows(s.config, root)
		if set && top > 0 {
			parts = append(parts, "autoCompactWindow="+strconv.FormatInt(top, 10))
		}
		for m, n := range byModel {
			if n > 0 {
				parts = append(parts, m+".autoCompactWindow="+strconv.FormatInt(n, 10))
			}
		}
	}
	for _, k := range []string{window.EnvCompactLimit, window.EnvPctOverride} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	slices.Sort(parts)
	v := strings.Join(parts, " ")
	s.of[root] = v
	return v
}

// History indexes cs, each tagged with what moved the compaction point in
// its project (s nil: nothing read, none tagged).
func History(cs []window.Compaction, s *Settings) *window.History {
	if s != nil {
		for i := range cs {
			cs[i].Setting = s.Of(cs[i].Project)
		}
	}
	return window.NewHistory(cs)
}
