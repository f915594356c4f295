package guard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A spelling of a protected path: how a command names one of the places
// (spellings' forms), and what it does to it (spellings' ways). Every
// combination is a write the guard must deny while armed.

// spelled is a path spelled one way: the words before the command (a cd,
// an assignment) and the word for the path.
type spelled struct{ before, word string }

// forms spell an absolute path p of the world w; ok is false for a form
// that does not apply (a ~ form of a path outside the home folder).
var forms = []struct {
	name  string
	spell func(w guardWorld, p string) (spelled, bool)
}{
	{"as is", func(w guardWorld, p string) (spelled, bool) { return spelled{"", p}, true }},
	{"~", func(w guardWorld, p string) (spelled, bool) { return homeForm(w, p, "~/") }},
	{"$HOME", func(w guardWorld, p string) (spelled, bool) { return homeForm(w, p, "$HOME/") }},
	{"${HOME}", func(w guardWorld, p string) (spelled, bool) { return homeForm(w, p, "\"${HOME}\"/") }},
	{"//", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"", strings.ReplaceAll(p, "/", "//")}, true
	}},
	{"/./", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"", filepath.Dir(p) + "/./" + filepath.Base(p)}, true
	}},
	{"..", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"", filepath.Dir(p) + "/../" + filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)}, true
	}},
	{"a link on the way", func(w guardWorld, p string) (spelled, bool) {
		rest, ok := strings.CutPrefix(p, filepath.Join(w.home, ".claude")+"/")
		return spelled{"", filepath.Join(w.root, "cfg", rest)}, ok
	}},
	{"glob", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"", filepath.Dir(p) + "/" + filepath.Base(p)[:2] + "*"}, !strings.HasSuffix(p, "context-budget")
	}},
	{"cd then relative", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"cd " + filepath.Dir(p) + " && ", filepath.Base(p)}, true
	}},
	{"a variable", func(w guardWorld, p string) (spelled, bool) { return spelled{"P=" + p + "; ", "\"$P\""}, true }},
	{"quoted", func(w guardWorld, p string) (spelled, bool) { return spelled{"", "'" + p + "'"}, true }},
	{"braces", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"", filepath.Dir(p) + "/{x," + filepath.Base(p) + "}"}, true
	}},
	{"an unknown variable", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"", filepath.Dir(p) + "/\"$X\"" + filepath.Base(p)[1:]}, true
	}},
	{"an unknown folder", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"", filepath.Dir(filepath.Dir(p)) + "/${D}/" + filepath.Base(p)}, true
	}},
	{"cd lost, then absolute", func(w guardWorld, p string) (spelled, bool) {
		return spelled{"cd \"$(mktemp -d)\"; cd " + filepath.Dir(p) + " && ", filepath.Base(p)}, true
	}},
}

func homeForm(w guardWorld, p, prefix string) (spelled, bool) {
	rest, ok := strings.CutPrefix(p, w.home+"/")
	return spelled{"", prefix + rest}, ok
}

// ways write a path spelled as a word.
var ways = []string{
	"rm -f %s", "echo '{}' > %s", "truncate -s 0 %s", "sed -i s/5/500/ %s", "cp /dev/null %s", "mv %s /tmp/gone",
	"tee %s < /dev/null", "cp -l %s kept", "touch %s", "find %s -delete", "python3 -c \"open('%s', 'w')\"",
	"bash -c \"rm -f %s\"", "echo %s | xargs rm -f", "tar -cf /tmp/x.tar --remove-files %s",
	"rsync -a --remove-source-files %s /tmp/kept/", "PAGER='rm -f %s' git log", "parallel rm -f ::: %s",
}

// targets are the places a spelling names, in a world w.
func targets(w guardWorld) []string {
	fuse := filepath.Join(w.home, ".claude", "context-budget")
	return []string{filepath.Join(fuse, "fuse", "k", "sess.fuse"), filepath.Join(fuse, "fuse", "k", "sess.spend"), fuse,
		filepath.Join(w.home, ".claude", "settings.json"), filepath.Join(w.root, ".claude", "settings.local.json"), w.transcript,
		filepath.Join(w.root, ".claude", "costs", "sessions", "2026-12", "old.json")}
}

// spelling is the command, and the tool call, of one combination: target
// t, form f, way v (indexes taken modulo their lists). ok is false when
// the form does not apply to the target.
func spelling(w guardWorld, t, f, v int) (cmd string, ok bool) {
	ts := targets(w)
	p := ts[t%len(ts)]
	form := forms[f%len(forms)]
	s, ok := form.spell(w, p)
	way := ways[v%len(ways)]
	if !ok || (form.name == "braces" || strings.HasPrefix(form.name, "an unknown")) && strings.Contains(way, "open(") {
		// Code's strings expand no braces, nor the shell's variables.
		return "", false
	}
	return s.before + fmt.Sprintf(way, s.word), true
}

// TestProtectedSpellings: every spelling of every place, written every
// way, is denied; so is a file tool naming a place by any spelling a
// file tool takes.
func TestProtectedSpellings(t *testing.T) {
	w := spellWorld(t)
	n := 0
	for ti := range targets(w) {
		for fi := range forms {
			for vi := range ways {
				cmd, ok := spelling(w, ti, fi, vi)
				if !ok {
					continue
				}
				n++
				if w.bash(cmd) == "" {
					t.Errorf("%s, %s: %q was allowed", targets(w)[ti], forms[fi].name, cmd)
				}
			}
		}
		p := targets(w)[ti]
		for _, tool := range []string{"Write", "mcp__fs__write_file", "mcp__fs__move"} {
			in, _ := json.Marshal(map[string]any{"file_path": p, "content": `{"hooks":{}}`, "args": map[string]any{"from": p}})
			if w.lifts(tool, string(in)) == "" {
				t.Errorf("%s %s: allowed", tool, in)
			}
		}
	}
	t.Logf("%d spellings", n)
	// The same spellings of a file of the project's own are ordinary
	// work: what denies is the place, not the spelling.
	mine := filepath.Join(w.root, "src", "main.go")
	for fi, form := range forms {
		s, ok := form.spell(w, mine)
		if !ok {
			continue
		}
		for vi := range ways {
			cmd := s.before + fmt.Sprintf(ways[vi], s.word)
			if why := w.bash(cmd); why != "" {
				t.Errorf("%s: %q was denied: %s", forms[fi].name, cmd, why)
			}
		}
	}
}

// FuzzProtectedSpellings: the fuzzer picks a place, a spelling and a way,
// and adds what it likes after the command (; or && and more): the guard
// denies every one.
func FuzzProtectedSpellings(f *testing.F) {
	for ti := range 7 {
		for fi := range forms {
			f.Add(uint8(ti), uint8(fi), uint8(fi+ti), "")
		}
	}
	f.Add(uint8(0), uint8(9), uint8(1), "; ls")
	f.Add(uint8(3), uint8(10), uint8(4), " && echo done")
	w := spellWorld(f)
	f.Fuzz(func(t *testing.T, ti, fi, vi uint8, tail string) {
		cmd, ok := spelling(w, int(ti), int(fi), int(vi))
		if !ok || strings.ContainsAny(tail, "#\\'\"`\n$") || !strings.HasPrefix(tail, ";") && !strings.HasPrefix(tail, " &&") && tail != "" {
			// A tail that is not a command of its own may quote or
			// comment the write away.
			return
		}
		if why := w.bash(cmd + tail); why == "" {
			t.Fatalf("%q was allowed", cmd+tail)
		}
	})
}

// spellWorld is a guard world with the user's config folder linked into
// the project (cfg), as a link on the way.
func spellWorld(tb testing.TB) guardWorld {
	w := newGuardWorld(tb)
	if err := os.Symlink(filepath.Join(w.home, ".claude"), filepath.Join(w.root, "cfg")); err != nil {
		tb.Skip("no symbolic links here:", err)
	}
	return w
}
