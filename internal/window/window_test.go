package window

import (
	"os"
	"path/filepath"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// testTable is a table of two ranges with a gap between them.
var testTable = &Table{DefaultBelow: 45_000, StepAllowance: 9_500, Ranges: []Range{
	{From: "2.1.5", To: "2.1.20", Below: 45_000, Compactions: 30, Sessions: 20},
	{From: "2.1.25", To: "2.1.42", Below: 33_000, Compactions: 19, Sessions: 15},
	{From: "2.1.332", To: "2.1.332", Below: 33_000, Measured: "mock"},
}}

func TestSourcesInOrder(t *testing.T) {
	all := Evidence{Env: 500_000, Transcript1M: true, Peak: 250_000, Statusline: 200_000, Version: "2.1.30", Table: testTable}
	type w struct {
		tokens int64
		source string
		at     int64
		point  string
	}
	observed := func(v string, win int64) (Observation, bool) {
		if v == "2.1.30" && win == Standard {
			return Observation{At: 164_000, Compactions: 4, Sessions: 3}, true
		}
		return Observation{}, false
	}
	for _, tc := range []struct {
		name string
		e    Evidence
		want w
	}{
		{"env", all, w{500_000, Env, 467_000, PointTable}},
		{"transcript", Evidence{Transcript1M: true, Peak: 250_000, Statusline: 200_000, Version: "2.1.30"}, w{OneM, Transcript, 967_000, PointTable}},
		{"observed", Evidence{Peak: 200_001, Statusline: 200_000, Version: "2.1.30"}, w{OneM, Observed, 967_000, PointTable}},
		{"statusline", Evidence{Peak: 200_000, Statusline: 1_000_000, Version: "2.1.30"}, w{OneM, Statusline, 967_000, PointTable}},
		{"old version", Evidence{Peak: 150_000, Version: "2.1.7"}, w{Standard, Default, 155_000, PointTable}},
		{"between rows: the cautious one", Evidence{Version: "2.1.22"}, w{Standard, Default, 155_000, PointTable}},
		{"past the last row", Evidence{Version: "2.2.0"}, w{Standard, Default, 167_000, PointTable}},
		{"unknown version", Evidence{Version: "1.0.0"}, w{Standard, Default, 155_000, PointDefault}},
		{"no version", Evidence{}, w{Standard, Default, 155_000, PointDefault}},
		{"other sessions", Evidence{Version: "2.1.30", Observed: observed}, w{Standard, Default, 164_000, PointObserved}},
		{"evidence of the compaction", Evidence{AutoCompactAt: 160_000, Version: "2.1.30", Observed: observed}, w{Standard, Default, 160_000, PointSession}},
		{"a later compaction is no evidence", Evidence{AutoCompactAt: 170_251, Version: "2.1.30"}, w{Standard, Default, 167_000, PointTable}},
		{"1M moves past old evidence", Evidence{Peak: 300_000, AutoCompactAt: 160_000, Version: "2.1.30"}, w{OneM, Observed, 967_000, PointTable}},
	} {
		if tc.e.Table == nil {
			tc.e.Table = testTable
		}
		got := Detect(tc.e, env(nil))
		if g := (w{got.Tokens, got.Source, got.CompactsAt, got.CompactSource}); g != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, g, tc.want)
		}
		if got.PauseRoom != EnoughRoom+9_500 {
			t.Errorf("%s: pause room %d", tc.name, got.PauseRoom)
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
		{map[string]string{EnvCompactLimit: "100000"}, 67_000},
		{map[string]string{EnvCompactLimit: "900000"}, 167_000}, // capped at the window
	} {
		if got := Detect(Evidence{Version: "2.1.30", Table: testTable}, env(tc.env)); got.CompactsAt != tc.want || got.CompactSource != PointEnv {
			t.Errorf("%v: compacts at %d (%s), want %d", tc.env, got.CompactsAt, got.CompactSource, tc.want)
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

func FuzzLookup(f *testing.F) {
	for _, s := range []string{"2.1.7", "2.1.332", "", "2.1", "x.y.z", "2.1.-1", "99999999999999999999.1.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		r, ok := testTable.Lookup(v)
		if ok && r.Below <= 0 {
			t.Errorf("%q: row %+v", v, r)
		}
		Series(v)
	})
}
