package guard

// The places the guard keeps and how a path stands to them: as spelled
// and with the links on its way resolved.

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/ledger"
)

// place is a path the guard keeps, and what it is, for the deny.
type place struct {
	path, what string
}

// What the settings places are.
const (
	settingsWhat = "a Claude Code settings file"
	managedWhat  = "Claude Code's managed settings"
)

// placeList lists, once a call names a path to check, what a call may
// not write, move or remove: the fuse's folder and its witness, Claude Code's settings
// (user, project, local, managed), the session's transcript and its
// subagents' folder, the project's ledger rows, the price files and the
// installed programs.
func (g *guard) placeList() []place {
	if g.places != nil {
		return g.places
	}
	g.places = []place{}
	add := func(what string, paths ...string) {
		for _, p := range paths {
			if p != "" && filepath.IsAbs(p) {
				g.places = append(g.places, place{filepath.Clean(p), what})
			}
		}
	}
	if base := g.stateRoot; base != "" {
		cfg := filepath.Dir(base)
		add("the fuse's own state", base)
		add(settingsWhat, filepath.Join(cfg, "settings.json"), filepath.Join(cfg, "settings.local.json"))
	}
	add("the fuse's witness", g.witness)
	add(settingsWhat, filepath.Join(g.root, ".claude", "settings.json"), filepath.Join(g.root, ".claude", "settings.local.json"))
	add(managedWhat, "/etc/claude-code", "/Library/Application Support/ClaudeCode")
	if g.transcript != "" {
		add("the session's transcripts", g.transcript, strings.TrimSuffix(g.transcript, ".jsonl"))
	}
	add("the ledger's rows", ledger.Dir(g.root))
	add("a price file", prices.UserFile(g.getenv), prices.ProjectFile(g.root))
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		add("an installed context-budget program", exe, filepath.Join(dir, "context-budget"), filepath.Join(dir, "context-budget-cli"))
	}
	return g.places
}

// resolve is path with the links on its way resolved, as far as the
// path exists; each folder on the way is looked at once per call.
func (g *guard) resolve(path string) string {
	if r, ok := g.memo[path]; ok {
		return r
	}
	r := path
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			r = real
		}
	} else if parent := filepath.Dir(path); parent != path {
		r = filepath.Join(g.resolve(parent), filepath.Base(path))
	}
	g.memo[path] = r
	return r
}

// fold is a path as the file system compares it: without case where the
// usual file systems ignore it.
func fold(p string) string {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return strings.ToLower(p)
	}
	return p
}

// Relations of a path to a place.
const (
	apart  = iota
	above  // a folder that holds it
	within // the place itself or inside it
)

// relate says how path stands to the places: within one, above one, or
// apart, with the place. Both the path and the places are taken as
// spelled and with their links resolved. A place's links are resolved
// only when it may matter: for a path above it (how is removes), or for
// one whose components hold its name; most calls name neither.
func (g *guard) relate(path string, how int) (int, place) {
	real := g.resolve(path)
	rel, pl := relation(path, g.placeList())
	if rel != within {
		if r, p := relation(real, g.places); r > rel {
			rel, pl = r, p
		}
	}
	if rel == within {
		return rel, pl
	}
	for _, p := range g.places {
		if name := filepath.Base(p.path); how != removes && how != linked && !hasPart(real, name) && !hasPart(path, name) {
			continue
		}
		if r := g.resolve(p.path); r != p.path {
			if got, x := relation(real, []place{{r, p.what}}); got == within || got == above && rel == apart {
				rel, pl = got, x
			}
		}
	}
	return rel, pl
}

// relation says how a path stands to a list of places.
func relation(path string, places []place) (int, place) {
	p := fold(path)
	best, bestPlace := apart, place{}
	for _, pl := range places {
		x := fold(pl.path)
		switch {
		case p == x || under(p, x):
			return within, pl
		case under(x, p):
			best, bestPlace = above, pl
		}
	}
	return best, bestPlace
}

// under reports whether path lies in the folder dir.
func under(path, dir string) bool {
	if dir == string(filepath.Separator) {
		return len(path) > 1 && path[0] == dir[0]
	}
	return len(path) > len(dir) && path[len(dir)] == filepath.Separator && path[:len(dir)] == dir
}

// hasPart reports whether name is one of path's components.
func hasPart(path, name string) bool {
	return slices.Contains(strings.Split(path, string(filepath.Separator)), name)
}

// relateGlob is relate for a pattern: within when it can name a path in
// a place, above when it can name a folder above one.
func (g *guard) relateGlob(pattern string) (int, place) {
	return g.relateMatch(pattern, matchPart)
}

// relateMatch is relateGlob with its components matched by match.
func (g *guard) relateMatch(pattern string, match func(pattern, name string) bool) (int, place) {
	pat := strings.Split(filepath.ToSlash(pattern), "/")
	for _, pl := range g.placeList() {
		parts := strings.Split(filepath.ToSlash(pl.path), "/")
		n := min(len(pat), len(parts))
		switch {
		case !slices.EqualFunc(pat[:n], parts[:n], match):
		case len(pat) >= len(parts):
			return within, pl
		default:
			return above, pl
		}
	}
	return apart, place{}
}

// matchPart matches one path component as the shell does: a * or ? does
// not match a leading dot.
func matchPart(pattern, name string) bool {
	return (!strings.HasPrefix(name, ".") || strings.HasPrefix(pattern, ".")) && anyPart(pattern, name)
}

// anyPart matches one path component where a * stands for a variable's
// unknown value, which may start with a dot.
func anyPart(pattern, name string) bool {
	ok, err := filepath.Match(pattern, name)
	return ok && err == nil
}

// Verdicts of a path operand: what the command does to it.
const (
	writes  = iota // writes or replaces the path itself
	removes        // removes, moves or overwrites it and what is under it
	// named: a program not known to write may write a path it is handed:
	// it counts as writes when the path names a place in its words (a
	// settings.json, a folder context-budget), as spelled or through a
	// link; a program writing what it was not handed is out of reach.
	named
	// linked: given a second name (a hard link), which writes it as any
	// name of it is written; a folder is linked with all it holds.
	linked
	// fills: a folder given content the guard cannot know (a folder
	// copied, synced or unpacked into it), which may hold any of the
	// places under it: it counts within a place and above one.
	fills
	// copied: copied, moved or linked to another name: a second name
	// for Claude Code's program (or a folder that holds it), which starts
	// a session by a name the guard does not know. Other files copy
	// freely.
	copied
)

// check says why touching w (in dir) would lift the fuse, "" when it
// would not. A write counts within a place; a removal above one too.
func (g *guard) check(w word, dir string, how int) string {
	for _, a := range w.alts {
		if why := g.check(a, dir, how); why != "" {
			return why
		}
	}
	if how == copied && w.text != "" {
		return g.secondName(w, absIn(w.text, dir))
	}
	// A part the guard cannot expand stands for any text:
	// "$CLAUDE_CONFIG_DIR"/projects/*/"$ID".jsonl may be the session's
	// transcript; from a known folder, "$ID".jsonl may be a file of it.
	pat, known := w.pattern()
	patterned := w.pat != "" && known && (dir != "" || filepath.IsAbs(pat))
	if w.text == "" || w.dyn && !strings.HasPrefix(w.text, "/") && !patterned {
		return ""
	}
	if !filepath.IsAbs(w.text) && dir == "" {
		return g.unplaced(w.text)
	}
	path := absIn(w.text, dir)
	if how == named {
		if !slices.ContainsFunc(g.placeList(), func(p place) bool { return hasPart(path, filepath.Base(p.path)) }) {
			return ""
		}
		how = writes
	}
	rel, pl := g.relate(path, how)
	if w.glob {
		rel, pl = g.relateGlob(path)
	}
	if patterned {
		if r, p := g.relateMatch(absIn(pat, dir), anyPart); r > rel {
			rel, pl = r, p
		}
	}
	switch {
	case how == linked && (rel == within || rel == above):
		return secondName("link", rel, pl, "through which it can be written", w.text)
	case rel == above && how == fills:
		return "copy or unpack content the guard cannot know into a folder that holds " + pl.what +
			", which it may replace (" + w.text + "; unpack into a folder of its own)"
	case rel == within:
		return "write, move or remove " + pl.what + " (" + w.text + ")"
	case rel == above && how == removes:
		return "remove or move a folder that holds " + pl.what + " (" + w.text + ")"
	}
	return ""
}

// secondName is the rule against giving what the guard keeps a second
// name (how: link, or copy, move or link), the place within or above
// what is named; through says what the name is for.
func secondName(how string, rel int, pl place, through, spelled string) string {
	what := pl.what
	if rel == above {
		what = "a folder that holds " + what
	}
	return how + " " + what + " under a second name, " + through + " (" + spelled + ")"
}

// secondName says why copying, moving or linking path (w as spelled)
// gives Claude Code's program a second name, "" when it does not: the
// program by its name (claudeProgram) or by CLAUDE_CODE_EXECPATH, and
// the path that variable holds, or a folder that holds it, as spelled or
// with its links resolved.
func (g *guard) secondName(w word, path string) string {
	rel := apart
	if w.claude || claudeProgram(path) {
		rel = within
	} else if exec := g.getenv(execVar); filepath.IsAbs(exec) {
		pl := []place{{filepath.Clean(exec), claudeWhat}}
		if r := g.resolve(exec); r != exec {
			pl = append(pl, place{r, claudeWhat})
		}
		rel, _ = relation(path, pl)
		if r, _ := relation(g.resolve(path), pl); r > rel {
			rel = r
		}
	}
	if rel == apart {
		return ""
	}
	return secondName("copy, move or link", rel, place{"", claudeWhat}, "by which it starts a session this session's cap would not cover", w.text)
}

// unplaced says why a relative path from a folder the guard cannot know
// (after cd "$(mktemp -d)") would lift the fuse: when one of its parts is
// the name of a place, or .claude, it may be that place; any other name
// is taken for the ordinary work it looks like.
func (g *guard) unplaced(path string) string {
	for _, p := range append(g.placeList(), place{".claude", "a Claude Code config folder"}) {
		if hasPart(filepath.Clean(path), filepath.Base(p.path)) {
			return "write, move or remove what may be " + p.what + ": " + path + ", from a folder the guard cannot know, names it"
		}
	}
	return ""
}

// home expands a leading ~/ to the home folder.
func (g *guard) home(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(g.getenv("HOME"), rest)
	}
	return p
}
