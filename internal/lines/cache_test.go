package lines

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// writeClimb writes the pinned example's transcript up to context c: the
// first response at 40,000 (38,000 read), 2,500 more per response.
func writeClimb(t *testing.T, path string, c int64) {
	t.Helper()
	var b strings.Builder
	for i := 0; 40_000+2_500*int64(i) <= c; i++ {
		ctx := 40_000 + 2_500*int64(i)
		read := ctx - 2_500
		if i == 0 {
			read = 38_000
		}
		fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m%d","model":"claude-opus-4-6","usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"output_tokens":50}}}`+"\n", i, read, ctx-read)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

type fixture struct {
	t    *testing.T
	env  map[string]string
	call Call
}

func newFixture(t *testing.T) *fixture {
	root := t.TempDir()
	// The pinned lines are the design's estimator's (§4).
	f := &fixture{t: t, env: map[string]string{"HOME": filepath.Join(root, "home"),
		tuning.EnvRate: tuning.RateSinceBoundary}}
	f.call = Call{Dir: state.Dir(root), ID: "s1", Root: root, Transcript: filepath.Join(root, "s1.jsonl"),
		Getenv: func(k string) string { return f.env[k] }}
	return f
}

// at decides at reading c, the transcript grown to c, and reports a hit.
func (f *fixture) at(c int64) (Lines, bool) {
	f.t.Helper()
	writeClimb(f.t, f.call.Transcript, c)
	st, err := tuning.FromEnv(f.call.Getenv)
	if err != nil {
		f.t.Fatal(err)
	}
	f.call.Settings, f.call.Reading = st, c
	d, hit, err := DecideCached(&f.call)
	if err != nil {
		f.t.Fatal(err)
	}
	return d.Lines, hit
}

// history is the history the last recompute saved.
func (f *fixture) history() forecast.History {
	f.t.Helper()
	h, ok := SavedHistory(f.call.Dir, f.call.ID)
	if !ok {
		f.t.Fatal("no saved history")
	}
	return h
}

func TestRecomputeRules(t *testing.T) {
	f := newFixture(t)
	steps := []struct {
		name    string
		reading int64
		change  func()
		hit     bool
	}{
		{"first call", 210_000, nil, false},
		{"grown less than 10k", 217_500, nil, true},
		{"grown 10k", 220_000, nil, false},
		{"a drop", 215_000, nil, false},
		{"same again", 215_000, nil, true},
		{"thresholds changed", 215_000, func() { f.env[tuning.EnvPauseSaving] = "1.0" }, false},
		{"env line changed", 215_000, func() { f.env[tuning.EnvWarn] = "150000" }, false},
		{"compaction variable", 215_000, func() { f.env["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"] = "50" }, false},
		{"override file appears", 215_000, func() {
			p := filepath.Join(f.call.Root, ".claude", "context-budget", "prices.toml")
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("as_of = \"2099-01-01\"\n"), 0o644)
		}, false},
		{"override file unchanged", 215_000, nil, true},
		{"override file touched", 215_000, func() {
			p := filepath.Join(f.call.Root, ".claude", "context-budget", "prices.toml")
			later := time.Now().Add(time.Hour)
			os.Chtimes(p, later, later)
		}, false},
		{"statusline records a window", 215_000, func() {
			os.WriteFile(filepath.Join(f.call.Dir, "s1.window"), []byte("1000000\n"), 0o644)
		}, false},
	}
	for _, st := range steps {
		if st.change != nil {
			st.change()
		}
		if _, hit := f.at(st.reading); hit != st.hit {
			t.Errorf("%s: hit %v, want %v", st.name, hit, st.hit)
		}
	}
}

// Crossing 200k is evidence of a 1M window: the lines move out at once.
func TestCrossing200k(t *testing.T) {
	f := newFixture(t)
	ls, _ := f.at(195_000)
	// No version in the fixture: the table's cautious default.
	t200 := window.Shipped()
	if want := window.Standard - t200.DefaultBelow - window.EnoughRoom - t200.StepAllowance; ls.Pause.SetBy != Window || ls.Pause.Tokens != want {
		t.Fatalf("at 195k: %+v", ls)
	}
	ls, hit := f.at(200_001 + 2_499) // within 10k of 195k
	if hit || ls.Pause.SetBy != Priced {
		t.Errorf("past 200k: hit %v lines %+v", hit, ls)
	}
}

// The recompute resumes the history from its saved offset.
func TestIncrementalHistory(t *testing.T) {
	f := newFixture(t)
	f.at(100_000)
	h1 := f.history()
	f.at(150_000)
	h2 := f.history()
	fi, _ := os.Stat(f.call.Transcript)
	if h1.Offset == 0 || h2.Offset != fi.Size() || h2.Responses != 45 {
		t.Errorf("offsets %d → %d of %d, responses %d", h1.Offset, h2.Offset, fi.Size(), h2.Responses)
	}
}

// The moved-line rule of the package doc, through climb.Advance.
func TestMovedLines(t *testing.T) {
	dir := t.TempDir()
	first := climb.LineTokens{Warn: 169_872, Pause: 200_641}
	out := climb.LineTokens{Warn: 190_000, Pause: 220_000}
	in := climb.LineTokens{Warn: 120_000, Pause: 150_000}
	for _, st := range []struct {
		name    string
		reading int64
		lines   climb.LineTokens
		want    climb.Level
	}{
		{"warn fires", 175_000, first, climb.Warn},
		{"lines move out: no re-fire, no re-arm", 180_000, out, climb.None},
		{"past the moved warn: already given", 195_000, out, climb.None},
		{"past the moved pause: due, fires", 221_000, out, climb.Pause},
		{"lines move in: pause already given", 221_000, in, climb.None},
		{"a real drop below both warns re-arms", 100_000, in, climb.None},
		{"the next climb warns again", 125_000, in, climb.Warn},
		{"lines move in past the reading: pause due at once", 130_000, climb.LineTokens{Warn: 110_000, Pause: 128_000}, climb.Pause},
	} {
		got, err := climb.AdvanceWith(dir, "s", st.reading, st.lines, climb.Options{})
		if err != nil || got != st.want {
			t.Errorf("%s: %v %v, want %v", st.name, got, err, st.want)
		}
	}
}

// TestLoadRefusesHostileFiles: a cache file no recompute wrote — garbage,
// another format, lines at zero, a folder, a FIFO — is a miss, never a
// decision, and a FIFO does not block the call.
func TestLoadRefusesHostileFiles(t *testing.T) {
	f := newFixture(t)
	f.at(150_000)
	name := FileName(f.call.Dir, f.call.ID)
	good, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := Load(f.call.Dir, f.call.ID); !ok {
		t.Fatal("the recompute's own entry does not load")
	}
	for _, tc := range []struct {
		name  string
		plant func()
	}{
		{"garbage", func() { os.WriteFile(name, []byte("not json"), 0o644) }},
		{"another format", func() {
			os.WriteFile(name, []byte(strings.Replace(string(good), fmt.Sprintf(`"format":%d`, Format), `"format":3`, 1)), 0o644)
		}},
		{"lines at zero", func() {
			os.WriteFile(name, []byte(strings.Replace(string(good), `"warn":{"tokens":`, `"warn":{"tokens":0,"x":`, 1)), 0o644)
		}},
		{"a torn write", func() { os.WriteFile(name, good[:len(good)/2], 0o644) }},
		{"a folder", func() { os.Remove(name); os.Mkdir(name, 0o755) }},
		{"a FIFO", func() { os.Remove(name); syscall.Mkfifo(name, 0o644) }},
	} {
		os.RemoveAll(name)
		tc.plant()
		// A FIFO read would hold the load until the test's timeout:
		// returning at all is that check.
		if _, ok := Load(f.call.Dir, f.call.ID); ok {
			t.Errorf("%s: Load took it", tc.name)
		}
		if _, ok := LoadQuick(f.call.Dir, f.call.ID); ok {
			t.Errorf("%s: LoadQuick took it", tc.name)
		}
	}
}

// TestQuickAgreesWithEntry: the quick part of an entry, which the hook
// and the status line read, says what the whole entry says.
func TestQuickAgreesWithEntry(t *testing.T) {
	f := newFixture(t)
	for _, c := range []int64{60_000, 150_000, 210_000, 260_000} {
		f.at(c)
		e, ok := Load(f.call.Dir, f.call.ID)
		q, qok := LoadQuick(f.call.Dir, f.call.ID)
		if !ok || !qok {
			t.Fatalf("at %d: loads %v %v", c, ok, qok)
		}
		if q.Tokens() != e.Decision.Lines.Tokens() || q.Decision.Compactions != e.Decision.Compactions ||
			q.Holds(&f.call) != e.Holds(&f.call) || !q.Holds(&f.call) {
			t.Errorf("at %d: quick %+v, entry %+v", c, q, e)
		}
		if q.Decision.Lines != e.Decision.Lines || q.Decision.Window != e.Decision.Window || !e.Decision.Priced ||
			*q.Decision.Money(c) != *e.Decision.Money(c) {
			t.Errorf("at %d: the status line's part %+v, the entry's %+v", c, q.Decision, e.Decision)
		}
	}
}

// TestQuickReadsEveryField: every field of the quick part, each set to
// a value of its own, reads back from the entry as written: a field added
// to Made, a line or a cost model without a path in LoadQuick fails here.
func TestQuickReadsEveryField(t *testing.T) {
	n := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		n++
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				fill(v.Field(i))
			}
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem())
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			fill(v.Index(0))
			fill(v.Index(1))
		case reflect.String:
			v.SetString(fmt.Sprintf("s%d \"é", n))
		case reflect.Int, reflect.Int64:
			v.SetInt(int64(n) * 1001)
		case reflect.Float64:
			v.SetFloat(float64(n) + 0.25)
		case reflect.Bool:
			v.SetBool(true)
		default:
			t.Fatalf("a field of kind %v", v.Kind())
		}
	}
	var e Entry
	fill(reflect.ValueOf(&e.Made).Elem())
	d := &e.Decision
	for _, v := range []any{&d.Lines, &d.Priced, &d.Cost, &d.Band, &d.BandAbove, &d.Compactions, &d.Reorientation.Words,
		&d.PaceFrom, &d.Spread, &d.Window, &d.Policy} {
		fill(reflect.ValueOf(v).Elem())
	}
	e.Format = Format
	e.Deps.Files = append(e.Deps.Files, "", "") // pairs
	dir := t.TempDir()
	data, err := json.Marshal(&e)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(FileName(dir, "s"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	q, ok := LoadQuick(dir, "s")
	want := Quick{Made: e.Made, Decision: Decision{Lines: d.Lines, Priced: d.Priced, Cost: d.Cost, Band: d.Band,
		BandAbove: d.BandAbove, Compactions: d.Compactions, Reorientation: Reorientation{Words: d.Reorientation.Words},
		PaceFrom: d.PaceFrom, Spread: d.Spread, Window: d.Window, Policy: d.Policy}}
	if !ok || !reflect.DeepEqual(q, want) {
		t.Errorf("LoadQuick = %+v, %v\nwant %+v", q, ok, want)
	}
}

// TestSettingsKeyCoversEverySetting: changing any one field of the
// settings changes the key an entry records them by, so that a field
// added to tuning.Settings cannot be left out of it.
func TestSettingsKeyCoversEverySetting(t *testing.T) {
	var zero tuning.Settings
	typ := reflect.TypeOf(zero)
	for i := range typ.NumField() {
		s := zero
		v := reflect.ValueOf(&s).Elem().Field(i)
		switch v.Kind() {
		case reflect.Int, reflect.Int64:
			v.SetInt(7)
		case reflect.Float64:
			v.SetFloat(0.5)
		case reflect.Bool:
			v.SetBool(true)
		case reflect.String:
			v.SetString("x")
		default:
			t.Fatalf("settings field %s of kind %v: give settingsKey a way to write it", typ.Field(i).Name, v.Kind())
		}
		if settingsKey(s) == settingsKey(zero) {
			t.Errorf("settings field %s is not in the key: %q", typ.Field(i).Name, settingsKey(s))
		}
	}
}
