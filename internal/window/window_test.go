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
		{"other sessions", Evidence{Version: "2.1.30", Seen: NewHistory(seen)}, w{Standard, Default, 164_000, PointSessions}},
		{"other sessions, as they stood", Evidence{Version: "2.1.30", Seen: NewHistory(seen), Before: "2026-03-02T09:00:00Z"}, w{Standard, Default, 164_000, PointSessions}},
		{"other sessions, none yet", Evidence{Version: "2.1.30", Seen: NewHistory(seen), Before: "2026-03-01T09:00:00Z"}, w{Standard, Default, 167_000, PointTable}},
		{"this session's own, lower", Evidence{AutoCompactAt: 160_000, Version: "2.1.30", Seen: NewHistory(seen)}, w{Standard, Default, 160_000, PointSession}},
		{"this session's own, higher than the others'", Evidence{AutoCompactAt: 165_000, Version: "2.1.30", Seen: NewHistory(seen)}, w{Standard, Default, 164_000, PointSessions}},
		{"one compaction past the table's is no evidence", Evidence{AutoCompactAt: 170_251, Version: "2.1.30"}, w{Standard, Default, 167_000, PointTable}},
		{"two compactions past the table's are", Evidence{AutoCompactAt: 170_251, Version: "2.1.30", Seen: NewHistory(later)}, w{Standard, Default, 169_000, PointSessions}},
		{"settings", Evidence{AutoCompactAt: 160_000, Settings: 150_000, Version: "2.1.30", Seen: NewHistory(seen)}, w{Standard, Default, 117_000, PointSettings}},
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
	q := Query{Version: "2.1.400", Window: Standard}
	o, ok := Learn(NewHistory(seen), q, testTable)
	if !ok || o.At != 168_000 || o.Compactions != LatestCount || o.Sessions != 3 || o.Source != PointSessions {
		t.Errorf("transcripts: %+v, %v", o, ok)
	}
	q.Session = "a"
	if o, _ := Learn(NewHistory(seen), q, testTable); o.Sessions != 2 || o.At != 168_000 {
		t.Errorf("the session's own are left out: %+v", o)
	}
	rows := []Compaction{
		{At: "2026-04-01T00:00:00Z", Version: "2.1.30", Window: Standard, PreTokens: 90_000, Session: "r1", Row: true},
	}
	q = Query{Version: "2.1.30", Window: Standard}
	if o, ok := Learn(NewHistory(rows), q, testTable); !ok || o.At != 147_000 || o.Source != PointRows {
		t.Errorf("a row far under the table's 167k: %+v, %v; want 147k (the table's point less 20k)", o, ok)
	}
	unknown := []Compaction{{At: "2026-04-01T00:00:00Z", Version: "9.9.9", Window: Standard, PreTokens: 90_000, Session: "r1", Row: true}}
	if o, ok := Learn(NewHistory(unknown), Query{Version: "9.9.9", Window: Standard}, &Table{}); !ok || o.At != 100_000 {
		t.Errorf("a row on a version no table knows: %+v, %v; want half the window", o, ok)
	}
	rows = append(rows, Compaction{At: "2026-03-01T00:00:00Z", Version: "2.1.30", Window: Standard, PreTokens: 175_000, Session: "t"})
	if o, ok := Learn(NewHistory(rows), q, testTable); !ok || o.At != 175_000 || o.Source != PointSessions {
		t.Errorf("a transcript outweighs the rows: %+v, %v", o, ok)
	}
	q.Window = OneM
	if _, ok := Learn(NewHistory(rows), q, testTable); ok {
		t.Error("another window's compactions count")
	}
	// Rows and transcripts indexed apart join as replay joins them.
	h := NewHistory(rows[1:]).WithRows(NewHistory(rows[:1]))
	if h.Len() != 2 {
		t.Errorf("joined history holds %d", h.Len())
	}
}

// TestLearnBounds: a learned point lies within [half the window, the
// window], however low or high the compactions it comes from; so does a
// session's own.
func TestLearnBounds(t *testing.T) {
	for _, tc := range []struct {
		pre, want int64
		window    int64
	}{
		{20_000, 100_000, Standard},  // one stray transcript that "compacted" at 20k
		{99_999, 100_000, Standard},  // just under half
		{150_000, 150_000, Standard}, // inside
		{250_000, 200_000, Standard}, // past the window: its window was misread
		{300_000, 500_000, OneM},     // half of 1M
		{1_200_000, 1_000_000, OneM}, // past 1M
		{990_000, 990_000, OneM},     // inside
		{Standard / 2, 100_000, Standard},
	} {
		seen := []Compaction{{At: "2026-04-01T00:00:00Z", Version: "2.1.30", Window: tc.window, PreTokens: tc.pre, Session: "x"}}
		o, ok := Learn(NewHistory(seen), Query{Version: "2.1.30", Window: tc.window}, testTable)
		if !ok || o.At != tc.want {
			t.Errorf("compacted at %d on %d: learned %d, %v; want %d", tc.pre, tc.window, o.At, ok, tc.want)
		}
	}
	w := Detect(Evidence{AutoCompactAt: 20_000, Version: "2.1.30", Table: testTable}, env(nil))
	if w.CompactsAt != 100_000 || w.CompactSource != PointSession {
		t.Errorf("the session's own compaction at 20k: %d (%s); want 100k", w.CompactsAt, w.CompactSource)
	}
}

// TestLearnAnyVersion: where neither the table nor an earlier compaction
// of the version knows the point, the latest compactions of any version
// of the same window give it; a version the table knows, or one with a
// compaction of its own, does not look at other versions.
func TestLearnAnyVersion(t *testing.T) {
	seen := NewHistory([]Compaction{
		{At: "2026-04-01T00:00:00Z", Version: "2.1.60", Window: Standard, PreTokens: 168_000, Session: "a"},
		{At: "2026-04-02T00:00:00Z", Version: "2.1.61", Window: Standard, PreTokens: 163_000, Session: "b"},
		{At: "2026-04-02T00:00:00Z", Version: "2.1.61", Window: OneM, PreTokens: 900_000, Session: "c"},
		{At: "2026-04-03T00:00:00Z", Version: "2.1.30", Window: Standard, PreTokens: 166_000, Session: "d"},
	})
	for _, tc := range []struct {
		name, version string
		auto          int64
		at            int64
		src           string
		any           bool
	}{
		// 2.1.22 lies between the table's rows: the cautious row's 155k
		// is a guess; three sessions of other versions say 163k.
		{"between rows", "2.1.22", 0, 163_000, PointSessions, true},
		{"unknown version", "1.0.0", 0, 163_000, PointSessions, true},
		{"past the table", "2.2.0", 0, 163_000, PointSessions, true},
		{"the table knows it", "2.1.7", 0, 155_000, PointTable, false},
		{"a compaction of the version", "2.1.61", 0, 163_000, PointSessions, false},
		{"one of the version, past the table's point", "2.1.60", 0, 167_000, PointTable, false},
		{"the session's own", "2.1.22", 150_000, 150_000, PointSession, false},
	} {
		w := Detect(Evidence{Version: tc.version, AutoCompactAt: tc.auto, Seen: seen, Table: testTable}, env(nil))
		if w.CompactsAt != tc.at || w.CompactSource != tc.src || w.AnyVersion != tc.any {
			t.Errorf("%s: %d (%s, any version %v); want %d (%s, %v)", tc.name, w.CompactsAt, w.CompactSource, w.AnyVersion, tc.at, tc.src, tc.any)
		}
	}
	w := Detect(Evidence{Version: "2.1.22", Seen: seen, Table: testTable}, env(nil))
	if words := w.PointWords(); words != "seen in 3 of your sessions of other Claude Code versions" {
		t.Errorf("words: %q", words)
	}
	if !testTable.Knows("2.1.5") || !testTable.Knows("2.1.42") || testTable.Knows("2.1.22") || testTable.Knows("2.1.43") || testTable.Knows("x") {
		t.Error("Knows: only versions within a row")
	}
}

// TestLearnSettingAndProject: a compaction teaches only sessions under
// the same compaction setting, one under a project's own setting only
// that project; the same project's sessions come first.
func TestLearnSettingAndProject(t *testing.T) {
	at := func(day int) string { return "2026-04-0" + string(rune('0'+day)) + "T00:00:00Z" }
	seen := NewHistory([]Compaction{
		// The other project's autoCompactWindow of 72k compacts at ~39k.
		{At: at(5), Version: "2.1.30", Window: Standard, PreTokens: 39_000, Session: "s1", Project: "/p/small", Setting: "autoCompactWindow=72000"},
		{At: at(6), Version: "2.1.30", Window: Standard, PreTokens: 39_500, Session: "s2", Project: "/p/small", Setting: "autoCompactWindow=72000"},
		{At: at(1), Version: "2.1.30", Window: Standard, PreTokens: 160_000, Session: "o1", Project: "/p/other"},
		{At: at(2), Version: "2.1.30", Window: Standard, PreTokens: 161_000, Session: "o2", Project: "/p/other"},
		{At: at(3), Version: "2.1.30", Window: Standard, PreTokens: 164_000, Session: "m1", Project: "/p/mine/"},
		{At: at(4), Version: "2.1.30", Window: Standard, PreTokens: 165_000, Session: "m2", Project: "/p/mine"},
	})
	q := Query{Version: "2.1.30", Window: Standard, Project: "/p/mine"}
	if o, ok := Learn(seen, q, testTable); !ok || o.At != 164_000 || o.Sessions != 2 {
		t.Errorf("the same project's first: %+v, %v; want 164k from m1 and m2", o, ok)
	}
	q.Project = "/p/new"
	if o, ok := Learn(seen, q, testTable); !ok || o.At != 160_000 || o.Sessions != 4 {
		t.Errorf("a project with none of its own: %+v, %v; want 160k from the four unset compactions", o, ok)
	}
	q.Setting = "autoCompactWindow=72000"
	if _, ok := Learn(seen, q, testTable); ok {
		t.Error("a project's own setting taught another project under the same setting")
	}
	q.Project = "/p/small"
	if o, ok := Learn(seen, q, testTable); !ok || o.At != 100_000 || o.Sessions != 2 {
		t.Errorf("a project's own setting teaches itself (bounded): %+v, %v", o, ok)
	}
	w := Detect(Evidence{Version: "2.1.30", Seen: seen, Table: testTable, Project: "/p/elsewhere"}, env(nil))
	if w.CompactsAt != 160_000 {
		t.Errorf("the other project's setting moved this one's point to %d", w.CompactsAt)
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
