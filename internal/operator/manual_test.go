package operator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/tuning"
)

// writeChoice writes an operator's file under root.
func writeChoice(t *testing.T, root, login, content string) {
	t.Helper()
	if err := os.MkdirAll(Dir(root), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(File(root, login), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestChoice(t *testing.T) {
	for _, tc := range []struct {
		content string
		want    tuning.Switch
	}{
		{"true", tuning.Yes},
		{"true\n", tuning.Yes},
		{" YES ", tuning.Yes},
		{"on", tuning.Yes},
		{"1\n", tuning.Yes},
		{"off", tuning.No},
		{"False\n", tuning.No},
		{"0", tuning.No},
		{"maybe", tuning.Unset},
		{"", tuning.Unset},
		{"true please", tuning.Unset},
		{strings.Repeat(" ", 2000) + "true", tuning.Unset},
	} {
		root := t.TempDir()
		writeChoice(t, root, "octocat", tc.content)
		if got := Choice(root, "octocat"); got != tc.want {
			t.Errorf("Choice with file %q = %v, want %v", tc.content, got, tc.want)
		}
	}
	if got := Choice(t.TempDir(), "octocat"); got != tuning.Unset {
		t.Errorf("Choice with no file = %v, want Unset", got)
	}
	// A login that is not a plain name is never turned into a path.
	root := t.TempDir()
	writeChoice(t, root, "octocat", "true")
	if got := Choice(filepath.Join(root, ".claude", "context-budget", "manual-relay", "sub"), "../octocat"); got != tuning.Unset {
		t.Errorf("Choice(../octocat) = %v, want Unset", got)
	}
}

func TestDecide(t *testing.T) {
	root := t.TempDir()
	writeChoice(t, root, "yes-op", " YES ")
	writeChoice(t, root, "no-op", "off")
	writeChoice(t, root, "odd-op", "maybe")
	writeChoice(t, root, "empty-op", "")
	writeChoice(t, root, "bob", "true") // someone else's choice
	for _, tc := range []struct {
		name  string
		env   tuning.Switch
		login string
		want  Decision
		asked bool
	}{
		{"env truthy asks nobody", tuning.Yes, "yes-op", Decision{Manual: true}, false},
		{"no operator: default, nothing offered", tuning.Unset, "", Decision{}, true},
		{"operator says yes", tuning.Unset, "yes-op", Decision{Manual: true, Operator: "yes-op"}, true},
		{"operator says no", tuning.Unset, "no-op", Decision{Operator: "no-op"}, true},
		{"operator file neither: offer", tuning.Unset, "odd-op", Decision{Offer: true, Operator: "odd-op"}, true},
		{"operator file empty: offer", tuning.Unset, "empty-op", Decision{Offer: true, Operator: "empty-op"}, true},
		{"no file: offer", tuning.Unset, "alice", Decision{Offer: true, Operator: "alice"}, true},
		{"env falsy still reads the file", tuning.No, "yes-op", Decision{Manual: true, Operator: "yes-op"}, true},
		{"env falsy, no operator", tuning.No, "", Decision{}, true},
		{"a login that is not plain is no operator", tuning.Unset, "../bob", Decision{}, true},
	} {
		asked := false
		got := Decide(tc.env, root, func() string { asked = true; return tc.login })
		if got != tc.want || asked != tc.asked {
			t.Errorf("%s: Decide = %+v (asked %v), want %+v (asked %v)", tc.name, got, asked, tc.want, tc.asked)
		}
	}
}

func TestPlainLogin(t *testing.T) {
	for _, tc := range []struct {
		login string
		want  bool
	}{
		{"octocat", true},
		{"octo-cat", true},
		{"mona_acme", true},
		{"a1", true},
		{"", false},
		{"OctoCat", false},
		{"-octo", false},
		{"_octo", false},
		{".octo", false},
		{"../octo", false},
		{"octo/cat", false},
		{"octo\x00", false},
		{"octo cat", false},
		{"github-actions[bot]", false},
		{strings.Repeat("a", 101), false},
	} {
		if got := PlainLogin(tc.login); got != tc.want {
			t.Errorf("PlainLogin(%q) = %v, want %v", tc.login, got, tc.want)
		}
	}
}
