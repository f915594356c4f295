package state

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestDue(t *testing.T) {
	ls := Lines{Warn: 300_000, Pause: 400_000}
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
	lines   Lines
	want    Level
}

var std = Lines{Warn: 300, Pause: 400}

func TestAdvance(t *testing.T) {
	moved := func(w, p int64) Lines { return Lines{Warn: w, Pause: p} }
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
				got, err := Advance(dir, "s1", s.reading, s.lines)
				if err != nil || got != s.want {
					t.Fatalf("step %d: Advance(%d, %+v) = %v, %v; want %v", i, s.reading, s.lines, got, err, s.want)
				}
			}
		})
	}
}

func TestAdvanceRecord(t *testing.T) {
	dir := t.TempDir()
	if _, err := Advance(dir, "s1", 305, std); err != nil {
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
	if _, err := Advance(dir, "s1", 10, std); err != nil {
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
		if got, err := Advance(dir, "s1", 305, std); err != nil || got != Warn {
			t.Errorf("state %q: Advance = %v, %v; want Warn (a damaged state is no state)", content, got, err)
		}
	}
}

func TestAdvanceErrors(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"", "../x", ".hidden", "a/b", `a\b`, "a\x00b"} {
		if got, err := Advance(dir, id, 500, std); !errors.Is(err, ErrName) || got != None {
			t.Errorf("Advance(%q) = %v, %v; want None, ErrName", id, got, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad ids wrote %d entries", len(entries))
	}

	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	if got, err := Advance(filepath.Join(file, "state"), "s1", 500, std); err == nil || got != None {
		t.Errorf("unwritable folder: Advance = %v, %v; want None and an error", got, err)
	}

	// A state file that cannot be replaced: nothing is announced.
	state := t.TempDir()
	os.MkdirAll(filepath.Join(state, "s1", "x"), 0o755)
	if got, err := Advance(state, "s1", 500, std); err == nil || got != None {
		t.Errorf("unreplaceable state: Advance = %v, %v; want None and an error", got, err)
	}
}

func TestPlainName(t *testing.T) {
	long := string(make([]byte, 201))
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"4d5611e5-241a-462a-8d15-5122611a9569", true}, {"s1", true}, {"a.b", false}, {"a..b", false}, {"x.lock", false}, {"A_b-9", true},
		{"", false}, {".", false}, {"..", false}, {".hidden", false}, {"../x", false}, {"a/b", false},
		{`a\b`, false}, {"a\x00", false}, {long, false},
	} {
		if got := PlainName(tc.id); got != tc.want {
			t.Errorf("PlainName(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestEnsureKeepsGitignore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tmp", "context-budget")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("mine\n"), 0o644)
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	if gi, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(gi) != "mine\n" {
		t.Errorf(".gitignore rewritten: %q", gi)
	}
}
