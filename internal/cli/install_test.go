package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/muthur/context-budget/skills"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["installbin"] = cmdInstallbin
	scriptCmds["jsoneq"] = cmdJSONEq
}

// cmdInstallbin copies the programs under test (context-budget and
// context-budget-cli) into a folder, as make install places them, so a
// script knows the path that install will register:
//
//	installbin DIR
func cmdInstallbin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: installbin DIR")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	for _, name := range []string{"context-budget", "context-budget-cli"} {
		src, err := exec.LookPath(name)
		ts.Check(err)
		// cp, not os.WriteFile: an executable this process held open for
		// writing would leak its descriptor into any child forked
		// meanwhile by a parallel script, and exec would fail with "text
		// file busy".
		dst := filepath.Join(dir, name)
		if out, err := exec.Command("cp", src, dst).CombinedOutput(); err != nil {
			ts.Fatalf("cp: %v: %s", err, out)
		}
		ts.Check(os.Chmod(dst, 0o755))
	}
}

// cmdJSONEq compares two JSON files by meaning, not by bytes:
//
//	jsoneq FILE1 FILE2
func cmdJSONEq(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsoneq FILE1 FILE2")
	}
	var v [2]any
	for i, name := range args {
		dec := json.NewDecoder(strings.NewReader(ts.ReadFile(name)))
		dec.UseNumber()
		if err := dec.Decode(&v[i]); err != nil {
			ts.Fatalf("%s: %v", name, err)
		}
	}
	eq := reflect.DeepEqual(v[0], v[1])
	if eq && neg {
		ts.Fatalf("%s and %s mean the same", args[0], args[1])
	}
	if !eq && !neg {
		ts.Fatalf("%s and %s differ in meaning:\n%s\n%s", args[0], args[1], ts.ReadFile(args[0]), ts.ReadFile(args[1]))
	}
}

// TestSkillsCopyAndRemove checks install's skill copying with skills of
// its own, as the build may not carry any yet.
func TestSkillsCopyAndRemove(t *testing.T) {
	dir := t.TempDir()
	all := []skills.Skill{{Name: "relay", Content: []byte("relay v2\n")}, {Name: "go", Content: []byte("go v2\n")}}
	old := filepath.Join(dir, "relay", "SKILL.md")
	os.MkdirAll(filepath.Dir(old), 0o755)
	os.WriteFile(old, []byte("relay v1\n"), 0o644)

	got, err := installSkills(place{}, all)(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2; len(got) != want {
		t.Fatalf("dry run: %d changes, want %d: %q", len(got), want, got)
	}
	if _, err := os.Stat(filepath.Join(dir, "go")); !os.IsNotExist(err) {
		t.Fatalf("dry run wrote the go skill (stat: %v)", err)
	}

	got, err = installSkills(place{}, all)(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(got, "\n"), "skill relay: updated") || !strings.Contains(strings.Join(got, "\n"), "skill go: added") {
		t.Errorf("changes = %q", got)
	}
	for _, s := range all {
		data, err := os.ReadFile(filepath.Join(dir, s.Name, "SKILL.md"))
		if err != nil || string(data) != string(s.Content) {
			t.Errorf("%s: got %q, %v; want %q", s.Name, data, err, s.Content)
		}
	}
	// The replaced skill may have been the user's own: it is kept.
	if data, err := os.ReadFile(old + ".bak"); err != nil || string(data) != "relay v1\n" {
		t.Errorf("backup of the replaced relay skill: %q, %v; want %q", data, err, "relay v1\n")
	}
	if _, err := os.Stat(filepath.Join(dir, "go", "SKILL.md.bak")); !os.IsNotExist(err) {
		t.Errorf("an added skill got a backup (stat: %v)", err)
	}
	if got, _ := installSkills(place{}, all)(dir, false); len(got) != 0 {
		t.Errorf("second install changed %q", got)
	}

	// A skill the user edited stays; the other goes with its folder.
	os.WriteFile(filepath.Join(dir, "go", "SKILL.md"), []byte("mine\n"), 0o644)
	got, err = removeSkills(place{}, all)(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("relay skill still there (stat: %v)", err)
	}
	if !strings.Contains(strings.Join(got, "\n"), "note: skill relay: left "+old+".bak") {
		t.Errorf("changes = %q, want a note on the relay backup", got)
	}

	if data, _ := os.ReadFile(filepath.Join(dir, "go", "SKILL.md")); string(data) != "mine\n" {
		t.Errorf("edited go skill = %q, want it kept", data)
	}
	if !strings.Contains(strings.Join(got, "\n"), "note: skill go: left") {
		t.Errorf("changes = %q", got)
	}

	// With no backup beside it, the folder goes with the skill.
	os.Remove(old + ".bak")
	os.Remove(filepath.Dir(old))
	if _, err := installSkills(place{}, all[:1])(dir, false); err != nil {
		t.Fatal(err)
	}
	if _, err := removeSkills(place{}, all[:1])(dir, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "relay")); !os.IsNotExist(err) {
		t.Errorf("relay folder still there (stat: %v)", err)
	}
}
