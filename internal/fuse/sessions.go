package fuse

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// Sessions tallies what the sessions of one work tree spent from a moment
// on, as a relay chain's runner counts its spend (design §15): every
// transcript under a Claude Code configuration folder whose session
// started in a folder inside the work tree, each with its subagents'
// files, counted as the fuse counts one session (Tally: each response
// once, by message.id; spend only grows), responses stamped before From
// left out. A session nested in another, whatever program started it,
// writes its own transcript there and is counted too; a session resumed
// from before From counts only its new responses.
type Sessions struct {
	// Projects is Claude Code's transcripts folder, <config>/projects.
	Projects string
	// Root is the work tree: a session counts when the cwd of its first
	// record lies inside it.
	Root string
	// From is the moment counting starts.
	From  time.Time
	Price Pricer
	// Fuse is the fuse's folder of the work tree (Dir), "" for none. A
	// session the fuse tallied counts no less than its saved tally
	// brought up to date (Stored): the tally keeps what a transcript
	// counted before it was emptied or rewritten, and notes it.
	Fuse string

	tallies map[string]*Tally // by main transcript
	stored  map[string]Stored // by session id, less its base
	base    map[string]Sum    // by session id: what its tally held before From
	outside map[string]bool   // transcripts whose session ran elsewhere
	root    string            // Root with its links resolved
}

// scanSlack is how much older than From a transcript's modification
// time may be and still be looked at: a file system may keep it coarse.
const scanSlack = 2 * time.Second

// cwdLines bounds the lines read from a transcript's start to find the
// folder its session started in.
const cwdLines = 64

// Update finds the transcripts written since From and reads each of them
// forwards from where the last Update stopped. A file that cannot be read
// keeps what it counted.
func (s *Sessions) Update() {
	if s.tallies == nil {
		s.tallies, s.outside = map[string]*Tally{}, map[string]bool{}
		s.root = resolved(s.Root)
	}
	found, _ := filepath.Glob(filepath.Join(s.Projects, "*", "*.jsonl"))
	for _, name := range found {
		if s.outside[name] {
			continue
		}
		t := s.tallies[name]
		if t == nil {
			fi, err := os.Stat(name)
			if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(s.From.Add(-scanSlack)) {
				continue
			}
			cwd, ok := firstCwd(name)
			if !ok {
				continue // not yet known: looked at again next time
			}
			if !inside(s.root, resolved(cwd)) {
				s.outside[name] = true
				continue
			}
			t = &Tally{Files: map[string]*File{}, from: s.From}
			s.tallies[name] = t
		}
		t.Read(Files(name), s.Price, &reading.Pass{}, "")
		if id := idOf(name); s.Fuse != "" {
			st := ReadStored(s.Fuse, id, name, s.Price)
			st.Sum = st.Sum.Sub(s.base[id])
			if s.stored == nil {
				s.stored = map[string]Stored{}
			}
			s.stored[id] = st
		}
	}
}

// Stored is what the fuse's saved tally of a session holds, brought up
// to date from its transcripts, and what that tally saw of tampering.
type Stored struct {
	Sum      Sum
	Tampered []string
}

// ReadStored reads a session's saved tally in the fuse's folder dir and
// brings it up to date from its transcript (the tally's own, else
// transcriptPath) as budget status does, saving nothing. The zero Stored
// when the fuse never tallied the session.
func ReadStored(dir, id, transcriptPath string, price Pricer) Stored {
	t := Load(dir, id)
	if len(t.Files) == 0 && len(t.Kept) == 0 && t.Floor == nil {
		return Stored{}
	}
	if t.Transcript != "" {
		transcriptPath = t.Transcript
	}
	t.Read(Files(transcriptPath), price, &reading.Pass{}, "")
	return Stored{Sum: t.Total(), Tampered: t.Tampered}
}

// Earlier notes a session resumed from before From: what the fuse's
// saved tally holds of it now is not counted.
func (s *Sessions) Earlier(id, transcriptPath string) {
	if s.Fuse == "" {
		return
	}
	if s.base == nil {
		s.base = map[string]Sum{}
	}
	s.base[id] = ReadStored(s.Fuse, id, transcriptPath, s.Price).Sum
}

// Total is the spend of every session counted.
func (s *Sessions) Total() Sum {
	var sum Sum
	for _, v := range s.Each() {
		sum = sum.Add(v)
	}
	return sum
}

// Each is the spend of each session counted, by its session id (its
// transcript's name): what its transcripts hold, or what the fuse's
// tally of it holds when that is more.
func (s *Sessions) Each() map[string]Sum {
	out := make(map[string]Sum, len(s.tallies))
	for name, t := range s.tallies {
		id := idOf(name)
		out[id] = out[id].Add(t.Total())
	}
	for id, st := range s.stored {
		out[id] = out[id].Max(st.Sum)
	}
	return out
}

// Tampered is what the fuse's tally of a session saw of tampering.
func (s *Sessions) Tampered(id string) []string {
	return s.stored[id].Tampered
}

// idOf is the session id a transcript is named by.
func idOf(name string) string {
	return strings.TrimSuffix(filepath.Base(name), ".jsonl")
}

// Transcript is the transcript of the session id among those counted, ""
// when none is.
func (s *Sessions) Transcript(id string) string {
	for name := range s.tallies {
		if filepath.Base(name) == id+".jsonl" {
			return name
		}
	}
	return ""
}

// firstCwd is the cwd of the first record of a transcript that has one;
// ok is false when none of its first lines does.
func firstCwd(name string) (cwd string, ok bool) {
	f, _, err := reading.Open(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	r := reading.NewReader(f)
	for range cwdLines {
		line, err := r.Next()
		if err != nil {
			return "", false
		}
		if !bytes.Contains(line, []byte(`"cwd"`)) {
			continue
		}
		transcript.Decode(line, func(rec *transcript.Record) {
			if !ok && rec.Cwd != "" {
				cwd, ok = rec.Cwd, true
			}
		})
		if ok {
			return cwd, true
		}
	}
	return "", false
}

// resolved is a folder's absolute path with its links resolved, as a
// process's working folder reads; the path cleaned when it does not
// resolve.
func resolved(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return filepath.Clean(dir)
}

// inside reports whether dir is root or a folder below it.
func inside(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
