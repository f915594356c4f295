package operator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/tuning"
)

// FuzzOperatorRecord feeds any bytes to the per-session record: whatever it
// holds, the answer is a plain login or none, and nobody is looked up again.
func FuzzOperatorRecord(f *testing.F) {
	for _, seed := range []string{"octocat\n", "\n", "", "Octo/Cat", "../../etc/passwd", "mona_acme", "a\x00b", " padded \n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "s.operator"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		login := Operator(dir, "s", func() string { t.Fatal("looked up despite a record"); return "" })
		if login != "" && !PlainLogin(login) {
			t.Fatalf("Operator = %q from %q", login, data)
		}
	})
}

// FuzzChoice feeds any bytes to an operator's file: the choice is Yes or No
// only for the words the design lists, and reading never fails loudly.
func FuzzChoice(f *testing.F) {
	for _, seed := range []string{"true", " YES ", "off", "maybe", "", "1\n", "no\r\n", "\xff\xfe"} {
		f.Add([]byte(seed))
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.MkdirAll(Dir(root), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(File(root, "op"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		got := Choice(root, "op")
		want := tuning.ParseSwitch(string(data))
		if len(data) > reading.MaxChoice {
			want = tuning.Unset
		}
		if got != want {
			t.Fatalf("Choice(%q) = %v, want %v", data, got, want)
		}
	})
}
