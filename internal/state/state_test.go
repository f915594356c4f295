package state

import (
	"os"
	"path/filepath"
	"testing"
)

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
