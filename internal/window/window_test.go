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
	seen := []Compaction{
		{At: "2026-03-01T10:00:00Z", Version: "2.1.30", Window: Standard, PreTokens: 164_000, Session: "a"},
		{At: "2026-03-02T10:00:00Z", Version: "2.1.30", Window: Standard, PreTokens: 166_000, Session: "b"},
		{At: "2026-03-02T10:00:00Z", Version: "2.1.30", Window: OneM, PreTokens: 150_000, Session: "c"},
		{At: "2026-03-02T10:00:00Z", Version: "2.1.29", Window: Standard, PreTokens: 140_000, Session: "d"},
	}
	later := []Compaction{{At: "2026-03-01T10:00:00Z", Version: "2.1.30", Window: Standard, PreTokens: 169_000, Session: "a"}}
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
		{"other sessions", Evidence{Version: "2.1.30", Seen: seen}, w{Standard, Default, 164_000, PointSessions}},
		{"other sessions, as they stood", Evidence{Version: "2.1.30", Seen: seen, Before: "2026-03-02T09:00:00Z"}, w{Standard, Default, 164_000, PointSessions}},
		{"other sessions, none yet", Evidence{Version: "2.1.30", Seen: seen, Before: "2026-03-01T09:00:00Z"}, w{Standard, Default, 167_000, PointTable}},
		{"this session's own, lower", Evidence{AutoCompactAt: 160_000, Version: "2.1.30", Seen: seen}, w{Standard, Default, 160_000, PointSession}},
		{"this session's own, higher than the others'", Evidence{AutoCompactAt: 165_000, Version: "2.1.30", Seen: seen}, w{Standard, Default, 164_000, PointSessions}},
		{"one compaction past the table's is no evidence", Evidence{AutoCompactAt: 170_251, Version: "2.1.30"}, w{Standard, Default, 167_000, PointTable}},
		{"two compactions past the table's are", Evidence{AutoCompactAt: 170_251, Version: "2.1.30", Seen: later}, w{Standard, Default, 169_000, PointSessions}},
		{"settings", Evidence{AutoCompactAt: 160_000, Settings: 150_000, Version: "2.1.30", Seen: seen}, w{Standard, Default, 117_000, PointSettings}},
		{"settings past the window", Evidence{Settings: 500_000, Version: "2.1.30"}, w{Standard, Default, 167_000, PointSettings}},
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
		{map[string]string{EnvCompactLimit: "50000"}, 67_000},   // Claude Code takes at least 100,000
		{map[string]string{EnvCompactLimit: "150000", EnvPctOverride: "50"}, 65_000},
	} {
		if got := Detect(Evidence{Version: "2.1.30", Table: testTable}, env(tc.env)); got.CompactsAt != tc.want || got.CompactSource != PointEnv {
			t.Errorf("%v: compacts at %d (%s), want %d", tc.env, got.CompactsAt, got.CompactSource, tc.want)
		}
	}
}

// TestLearn: the latest Latest compactions by the records' times, the
// lowest of them; transcripts outweigh rows; rows are bounded by the
// table's point and half the window.
func TestLearn(t *testing.T) {
	var seen []Compaction
	for i, pre := range []int64{150_000, 171_000, 168_000, 169_000, 170_000, 172_000, 168_500} {
		// The oldest (150k) falls out of the latest five.
		seen = append(seen, Compaction{At: "2026-04-0" + string(rune('1'+i)) + "T00:00:00Z", Version: "2.1.400", Window: Standard, PreTokens: pre, Session: string(rune('a' + i%3))})
	}
	o, ok := Learn(seen, "2.1.400", Standard, "", testTable)
	if !ok || o.At != 168_000 || o.Compactions != LatestCount || o.Sessions != 3 || o.Source != PointSessions {
		t.Errorf("transcripts: %+v, %v", o, ok)
	}
	rows := []Compaction{
		{At: "2026-04-01T00:00:00Z", Version: "2.1.30", Window: Standard, PreTokens: 90_000, Session: "r1", Row: true},
	}
	if o, ok := Learn(rows, "2.1.30", Standard, "", testTable); !ok || o.At != 147_000 || o.Source != PointRows {
		t.Errorf("a row far under the table's 167k: %+v, %v; want 147k (the table's point less 20k)", o, ok)
	}
	unknown := []Compaction{{At: "2026-04-01T00:00:00Z", Version: "9.9.9", Window: Standard, PreTokens: 90_000, Session: "r1", Row: true}}
	if o, ok := Learn(unknown, "9.9.9", Standard, "", &Table{}); !ok || o.At != 100_000 {
		t.Errorf("a row on a version no table knows: %+v, %v; want half the window", o, ok)
	}
	rows = append(rows, Compaction{At: "2026-03-01T00:00:00Z", Version: "2.1.30", Window: Standard, PreTokens: 175_000, Session: "t"})
	if o, ok := Learn(rows, "2.1.30", Standard, "", testTable); !ok || o.At != 175_000 || o.Source != PointSessions {
		t.Errorf("a transcript outweighs the rows: %+v, %v", o, ok)
	}
	if _, ok := Learn(rows, "2.1.30", OneM, "", testTable); ok {
		t.Error("another window's compactions count")
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
