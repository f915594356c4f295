package climb

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/state"
)

func TestDue(t *testing.T) {
	ls := LineTokens{Warn: 300_000, Pause: 400_000}
	for _, tc := range []struct {
		reading int64
		want    Level
	}{
		{0, None}, {299_999, None}, {300_000, Warn}, {350_000, Warn}, {399_999, Warn},
		{400_000, Pause}, {1_000_000, Pause},
	} {
		if got := ls.Due(tc.reading); got != tc.want {
			t.Errorf("Due(%d) = %v, want %v", tc.reading, got, tc.want)
		}
	}
}

// step is one hook call: a reading against the lines in force then, and
// the level it should announce.
type step struct {
	reading int64
	lines   LineTokens
	want    Level
}

var std = LineTokens{Warn: 300, Pause: 400}

func TestAdvance(t *testing.T) {
	moved := func(w, p int64) LineTokens { return LineTokens{Warn: w, Pause: p} }
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"a climb", []step{{100, std, None}, {299, std, None}, {305, std, Warn}, {310, std, None},
			{399, std, None}, {400, std, Pause}, {500, std, None}, {400, std, None}}},
		{"straight past the pause", []step{{450, std, Pause}, {350, std, None}, {310, std, None}, {460, std, None}}},
		{"a drop under warn re-arms", []step{{305, std, Warn}, {410, std, Pause}, {40, std, None}, {120, std, None},
			{305, std, Warn}, {401, std, Pause}}},
		{"a drop that stays over warn does not", []step{{410, std, Pause}, {300, std, None}, {399, std, None}, {420, std, None}}},
		{"a drop from warn re-arms warn", []step{{305, std, Warn}, {299, std, None}, {300, std, Warn}}},
		{"a warn line that moves up does not re-fire", []step{{305, std, Warn}, {305, moved(310, 400), None},
			{312, moved(310, 400), None}, {320, moved(310, 400), None}}},
		{"a warn line that moves down does not re-fire", []step{{305, std, Warn}, {280, moved(250, 400), None},
			{290, moved(250, 400), None}}},
		{"the lower line in force decides the re-arm", []step{{305, std, Warn}, {260, moved(250, 400), None},
			{240, moved(250, 400), None}, {260, moved(250, 400), Warn}}},
		{"a pause line that moves below the reading fires it", []step{{305, std, Warn}, {330, moved(300, 320), Pause},
			{330, std, None}}},
		{"a pause line that moves away does not clear it", []step{{405, std, Pause}, {405, moved(300, 450), None},
			{455, moved(300, 450), None}}},
		{"lines that move up after a warning re-arm only on a real drop", []step{{305, std, Warn}, {320, moved(350, 450), None},
			{355, moved(350, 450), None}, {299, moved(350, 450), None}, {355, moved(350, 450), Warn}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for i, s := range tc.steps {
				got, err := AdvanceWith(dir, "s1", s.reading, s.lines, Options{})
				if err != nil || got != s.want {
					t.Fatalf("step %d: AdvanceWith(%d, %+v) = %v, %v; want %v", i, s.reading, s.lines, got, err, s.want)
				}
			}
		})
	}
}

func TestAdvanceRecord(t *testing.T) {
	dir := t.TempDir()
	if _, err := AdvanceWith(dir, "s1", 305, std, Options{}); err != nil {
		t.Fatal(err)
	}
	got := Load(filepath.Join(dir, "s1"))
	want := Record{Level: Warn, Name: "warn", Lines: std, Reading: 305}
	if got != want {
		t.Errorf("Load = %+v, want %+v", got, want)
	}
	gi, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil || string(gi) != "*\n" {
		t.Errorf(".gitignore = %q, %v; want \"*\\n\"", gi, err)
	}
	// A drop under the warn line removes the record.
	if _, err := AdvanceWith(dir, "s1", 10, std, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "s1")); !os.IsNotExist(err) {
		t.Errorf("after a drop the state file is still there: %v", err)
	}
}

func TestAdvanceDamagedState(t *testing.T) {
	for _, content := range []string{"", "not json", `{"level":"huge"}`, `{"level":3}`} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "s1"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := AdvanceWith(dir, "s1", 305, std, Options{}); err != nil || got != Warn {
			t.Errorf("state %q: Advance = %v, %v; want Warn (a damaged state is no state)", content, got, err)
		}
	}
}

func TestAdvanceErrors(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"", "../x", ".hidden", "a/b", `a\b`, "a\x00b"} {
		if got, err := AdvanceWith(dir, id, 500, std, Options{}); !errors.Is(err, state.ErrName) || got != None {
			t.Errorf("AdvanceWith(%q) = %v, %v; want None, ErrName", id, got, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad ids wrote %d entries", len(entries))
	}

	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	if got, err := AdvanceWith(filepath.Join(file, "state"), "s1", 500, std, Options{}); err == nil || got != None {
		t.Errorf("unwritable folder: Advance = %v, %v; want None and an error", got, err)
	}

	// A state file that cannot be replaced: nothing is announced.
	state := t.TempDir()
	os.MkdirAll(filepath.Join(state, "s1", "x"), 0o755)
	if got, err := AdvanceWith(state, "s1", 500, std, Options{}); err == nil || got != None {
		t.Errorf("unreplaceable state: Advance = %v, %v; want None and an error", got, err)
	}
}

// The record's lock planted as a symbolic link is not followed: Advance
// announces nothing and creates nothing (issue 20, class 7; the lock
// itself is state's, TestLockRefusesSymlink).
func TestAdvanceRefusesLinkedLock(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "created-by-the-hook")
	if err := os.Symlink(outside, filepath.Join(dir, "s1.lock")); err != nil {
		t.Skip(err)
	}
	if got, err := AdvanceWith(dir, "s1", 500, std, Options{}); err == nil || got != None {
		t.Errorf("Advance through a linked lock = %v, %v; want None and an error", got, err)
	}
	if _, err := os.Lstat(outside); !os.IsNotExist(err) {
		t.Errorf("the link's target was created: %v", err)
	}
}

// A state folder that is a symbolic link out of the project gets no
// record: Advance announces nothing (issue 20, class 7; the folder is
// state's, TestEnsureRefusesLinkOut).
func TestAdvanceRefusesLinkOut(t *testing.T) {
	for _, link := range []string{"tmp/context-budget", "tmp"} {
		root, outside := t.TempDir(), t.TempDir()
		os.WriteFile(filepath.Join(outside, "s1"), []byte("theirs\n"), 0o644)
		at := filepath.Join(root, filepath.FromSlash(link))
		os.MkdirAll(filepath.Dir(at), 0o755)
		if err := os.Symlink(outside, at); err != nil {
			t.Skip(err)
		}
		if got, err := AdvanceWith(state.Dir(root), "s1", 500, std, Options{}); err == nil || got != None {
			t.Errorf("%s linked out: Advance = %v, %v; want None and an error", link, got, err)
		}
		if data, _ := os.ReadFile(filepath.Join(outside, "s1")); string(data) != "theirs\n" {
			t.Errorf("%s linked out: the outside file was replaced: %q", link, data)
		}
	}
}

// A tampered state file whose lines no computation gives is no state: a
// warn line of −3·10¹⁸ would re-arm on every call (issue 20, class 2).
func TestLoadRefusesHostileRecord(t *testing.T) {
	dir := t.TempDir()
	for _, body := range []string{
		`{"level":"pause","lines":{"Warn":-3000000000000000000,"Pause":400},"reading":500}`,
		`{"level":"warn","lines":{"Warn":300,"Pause":0},"reading":305}`,
		`{"level":"warn","lines":{"Warn":300,"Pause":400},"reading":-1}`,
	} {
		name := filepath.Join(dir, "s1")
		os.WriteFile(name, []byte(body), 0o644)
		if rec := Load(name); rec.Level != None {
			t.Errorf("Load(%s) = %+v, want no state", body, rec)
		}
	}
}
