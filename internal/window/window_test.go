package window

import (
	"os"
	"path/filepath"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestSourcesInOrder(t *testing.T) {
	all := Evidence{Env: 500_000, Transcript1M: true, Peak: 250_000, Statusline: 200_000}
	for _, tc := range []struct {
		name string
		e    Evidence
		want Window
	}{
		{"env", all, Window{500_000, Env, 467_000}},
		{"transcript", Evidence{Transcript1M: true, Peak: 250_000, Statusline: 200_000}, Window{OneM, Transcript, 967_000}},
		{"observed", Evidence{Peak: 200_001, Statusline: 200_000}, Window{OneM, Observed, 967_000}},
		{"statusline", Evidence{Peak: 200_000, Statusline: 1_000_000}, Window{OneM, Statusline, 967_000}},
		{"default", Evidence{Peak: 150_000}, Window{Standard, Default, 167_000}},
		{"evidence of the compaction", Evidence{AutoCompactAt: 160_000}, Window{Standard, Default, 160_000}},
		{"a later compaction is no evidence", Evidence{AutoCompactAt: 170_251}, Window{Standard, Default, 167_000}},
		{"1M moves past old evidence", Evidence{Peak: 300_000, AutoCompactAt: 160_000}, Window{OneM, Observed, 967_000}},
	} {
		if got := Detect(tc.e, env(nil)); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestOverrides(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want int64
	}{
		{map[string]string{EnvPctOverride: "50"}, 90_000},
		{map[string]string{EnvPctOverride: "95"}, 167_000}, // only lowers
		{map[string]string{EnvPctOverride: "junk"}, 167_000},
		{map[string]string{EnvPctOverride: "0"}, 167_000},
		{map[string]string{EnvCompactLimit: "100000"}, 67_000},
		{map[string]string{EnvCompactLimit: "900000"}, 167_000}, // capped at the window
	} {
		if got := Detect(Evidence{}, env(tc.env)).CompactsAt; got != tc.want {
			t.Errorf("%v: compacts at %d, want %d", tc.env, got, tc.want)
		}
	}
}

func TestFile(t *testing.T) {
	name := FileName(t.TempDir(), "s1")
	if got := ReadFile(name); got != 0 {
		t.Errorf("missing file: %d", got)
	}
	if err := os.WriteFile(name, []byte("1000000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := ReadFile(name); got != 1_000_000 {
		t.Errorf("read %d", got)
	}
	if filepath.Base(name) != "s1.window" {
		t.Errorf("name %s", name)
	}
}

func TestWords(t *testing.T) {
	if got, want := (Window{Tokens: Standard, Source: Default, CompactsAt: 167_000}).Words(), "the 200k window's compaction point at 167k; window size from the default"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := (Window{Tokens: OneM, Source: Observed, CompactsAt: 967_000}).Words(), "the 1M window's compaction point at 967k; window size from a reading past 200k"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
