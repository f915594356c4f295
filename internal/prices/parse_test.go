package prices

import (
	"bytes"
	"go/format"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestGeneratedFresh fails while table_gen.go is not what go generate
// makes of prices.toml: an edit of the price file must reach the binary.
func TestGeneratedFresh(t *testing.T) {
	data, err := os.ReadFile("prices.toml")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Parse(data, "prices.toml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := format.Source(GoSource(tab))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("table_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("table_gen.go is stale: run go generate ./internal/prices")
	}
	emb, _ := Embedded()
	if !reflect.DeepEqual(emb, tab) {
		t.Errorf("Embedded() differs from prices.toml parsed")
	}
	if len(emb.Rows) < 10 || emb.AsOf == "" {
		t.Errorf("embedded table: %d rows, as_of %q", len(emb.Rows), emb.AsOf)
	}
}

// TestEmbeddedCopy: a caller's change to the table it got (Load merges
// into it) does not reach the next caller.
func TestEmbeddedCopy(t *testing.T) {
	a, _ := Embedded()
	a.Rows[0].Input = 1234
	for i := range a.Rows {
		if a.Rows[i].Band != nil {
			a.Rows[i].Band.Input = 1234
		}
	}
	b, _ := Embedded()
	if b.Rows[0].Input == 1234 {
		t.Error("a change to one Embedded() table reached another")
	}
	for _, r := range b.Rows {
		if r.Band != nil && r.Band.Input == 1234 {
			t.Error("a change to one Embedded() band reached another")
		}
	}
}

// tomlParse is the reading this package did with BurntSushi/toml: the
// reference the subset reader is checked against.
func tomlParse(data []byte) (*Table, error) {
	var t Table
	md, err := toml.Decode(string(data), &t)
	if err != nil {
		return nil, err
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, os.ErrInvalid
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	return &t, nil
}

// agree checks that whatever the subset reader accepts, TOML reads the
// same way; the reader may refuse more.
func agree(t *testing.T, src string) {
	t.Helper()
	got, err := Parse([]byte(src), "f")
	if err != nil {
		return
	}
	want, werr := tomlParse([]byte(src))
	if werr != nil {
		t.Fatalf("accepted what TOML refuses (%v):\n%s", werr, src)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read differently from TOML:\n%s\ngot  %+v\nwant %+v", src, got, want)
	}
}

var parseSeeds = []string{
	"as_of = \"2027-01-01\"\n[[model]]\nid = \"m\"\ninput = 1.0\noutput = 2\ncache_read = 0.1\ncache_write_5m = 1.25\ncache_write_1h = 2.0\n",
	"[[model]]\nid = 'm' # a comment\nspeed = \"fast\"\ninput = 1_000.5\nband_above = 100_000\n[model.band]\ninput = 2e0\n",
	"[[model]]\nid = \"m\"\nband_above = 5\nband = { input = 1, output = 2.5 }\n",
	"  [[model]]\n  id=\"a\\u00e9\\\"b\"\r\n\t\"input\" = +3\n",
	"[[ model ]]\nid = \"m\"\n[ model . band ]\ncache_read = 0.0\n",
}

func TestParseAgreesWithTOML(t *testing.T) {
	data, _ := os.ReadFile("prices.toml")
	for _, src := range append(parseSeeds, string(data)) {
		if _, err := Parse([]byte(src), "f"); err != nil {
			t.Errorf("refused a valid file: %v\n%s", err, src)
		}
		agree(t, src)
	}
}

// TestParseRefuses: what the reader must not accept; each names a line.
func TestParseRefuses(t *testing.T) {
	for _, src := range []string{
		"[[model]]\nid = \"x\"\ninptu = 1\n",            // misspelt key
		"[[model]]\nid = \"x\"\ninput = 1\ninput = 2\n", // set twice
		"[[model]]\ninput = 1\n",                        // no id
		"as_of = 2026-11-30\n",                          // a date, not a string
		"[model]\nid = \"x\"\n",                         // not the array
		"[[model]]\nid = \"x\"\nband.input = 1\n",       // dotted key
		"[[model]]\nid = \"x\"\nband_above = 10\n",      // a band limit without a band
		"[[model]]\nid = \"x\"\ninput = 1 2\n",
		"[[model]]\nid = \"x\ninput = 1\n",
		"[[model]]\nid = \"x\"\ninput = 01\n",
		"[[model]]\nid = \"x\"\ninput = 1__0\n",
		"[[model]]\nid = \"x\"\ninput = .5\n",
		"[[model]]\nid = \"x\"\ninput = \"\"\"5\"\"\"\n",
		"[model.band]\ninput = 1\n",
		"\xff\xfe",
	} {
		if _, err := Parse([]byte(src), "f"); err == nil {
			t.Errorf("accepted:\n%s", src)
		}
	}
}

// TestParseRangeCheck is issue 20's class 3: a rate that is NaN, infinite,
// negative or absurd makes the override fail, so that the embedded table
// is used (a NaN cost once stopped every ledger row from being written).
func TestParseRangeCheck(t *testing.T) {
	for _, v := range []string{"nan", "+nan", "-nan", "inf", "+inf", "-inf", "-1", "-0.5", "1e308", "2e6"} {
		for _, where := range []string{"[[model]]\nid = \"x\"\ninput = %s\n", "[[model]]\nid = \"x\"\ncache_write_1h = %s\n",
			"[[model]]\nid = \"x\"\nband_above = 1\n[model.band]\noutput = %s\n", "[[model]]\nid = \"x\"\nband_above = 1\nband = { cache_read = %s }\n"} {
			src := strings.Replace(where, "%s", v, 1)
			if tab, err := Parse([]byte(src), "f"); err == nil {
				t.Errorf("accepted a rate of %s: %+v\n%s", v, tab.Rows, src)
			}
		}
	}
	if _, err := Parse([]byte("[[model]]\nid = \"x\"\nband_above = -5\n[model.band]\ninput = 1\n"), "f"); err == nil {
		t.Error("accepted a negative band_above")
	}
	// An override that fails the check is not merged: Load reports it and
	// a caller takes the embedded table.
	dir := t.TempDir()
	bad := filepath.Join(dir, "prices.toml")
	os.WriteFile(bad, []byte("[[model]]\nid = \"claude-opus-4-6\"\ninput = nan\noutput = 1\n"), 0o644)
	if _, err := Load([]string{bad}); err == nil {
		t.Error("Load took a NaN rate")
	}
	emb, _ := Embedded()
	for _, r := range emb.Rows {
		if math.IsNaN(r.Input) || r.Input < 0 {
			t.Errorf("embedded row %s: input %v", r.ID, r.Input)
		}
	}
}

// TestOverrideNotRegular: an override that is a FIFO or a link to a
// device is refused without being read (it would block or never end).
func TestOverrideNotRegular(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "prices.toml")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Skip(err)
	}
	if _, err := Load([]string{link}); err == nil {
		t.Error("Load read /dev/zero as a price file")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	data, _ := os.ReadFile("prices.toml")
	f.Add(string(data))
	f.Fuzz(func(t *testing.T, src string) {
		agree(t, src)
	})
}
