package override

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
)

// rowText is a price file's row for a model, its input rate as written and
// the other rates prices.
func rowText(id, input string) string {
	return "[[model]]\nid = \"" + id + "\"\ninput = " + input + "\noutput = 25.0\ncache_read = 0.5\ncache_write_5m = 6.25\ncache_write_1h = 10.0\n"
}

// loadWith writes the user's and the project's files (either may be "")
// in a fresh folder and loads them.
func loadWith(t *testing.T, user, project string) (*prices.Table, []string, error) {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "proj")
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "cfg")}
	getenv := func(k string) string { return env[k] }
	for name, text := range map[string]string{prices.UserFile(getenv): user, prices.ProjectFile(root): project} {
		if text == "" {
			continue
		}
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Load(root, getenv)
}

// TestRules: what each file may change, and what a command is told.
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name          string
		user, project string
		model         string  // a model to look up after loading
		input         float64 // its input rate then, 0 for unpriced
		asOf          string
		warning       string // a regexp one warning matches, or ""
	}{
		{name: "built in", model: "claude-opus-4-6", input: 5, asOf: prices.EmbeddedAsOf()},
		{name: "the user changes a rate", user: "as_of = \"2027-01-01\"\n" + rowText("claude-opus-4-6", "7.0"),
			model: "claude-opus-4-6", input: 7, asOf: "2027-01-01"},
		{name: "the user adds a model", user: rowText("my-model", "2"), model: "my-model", input: 2, asOf: prices.EmbeddedAsOf()},
		{name: "the project adds a model", project: rowText("their-model", "3"), model: "their-model", input: 3, asOf: prices.EmbeddedAsOf()},
		{name: "the project may not reprice a shipped model", project: rowText("claude-opus-4-6", "0.5"),
			model: "claude-opus-4-6", input: 5, warning: `proj/\.claude/context-budget/prices\.toml: model "claude-opus-4-6" is priced already.*only add models`},
		{name: "nor through a dated id", project: rowText("claude-opus-4-6-20260101", "0.5"),
			model: "claude-opus-4-6-20260101", input: 5, warning: `"claude-opus-4-6-20260101" is priced already`},
		{name: "nor a model the user priced", user: rowText("my-model", "2"), project: rowText("my-model", "9"),
			model: "my-model", input: 2, warning: `"my-model" is priced already`},
		{name: "nor date the table", project: "as_of = \"2030-01-01\"\n", model: "claude-opus-4-6", input: 5, asOf: prices.EmbeddedAsOf()},
		{name: "an unknown key is skipped", user: rowText("my-model", "2") + "context = 1000000\n",
			model: "my-model", input: 2, warning: `unknown key "model\.context" skipped`},
		{name: "an as_of that is not a date", user: "as_of = \"\\u001b]52;c;aGk=\\u0007\"\n", model: "claude-opus-4-6", input: 5,
			asOf: prices.EmbeddedAsOf(), warning: `as_of "\\x1b\]52;c;aGk=\\a" is not a date`},
		{name: "an inline spelling", user: "model = [{id = \"m\", input = 1, output = 5, cache_read = 0.1, cache_write_5m = 1.25, cache_write_1h = 2, band_above = 10, band = {input = 2, output = 10, cache_read = 0.2, cache_write_5m = 2.5, cache_write_1h = 4}}]\n",
			model: "m", input: 1},
	} {
		tab, warnings, err := loadWith(t, tc.user, tc.project)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		r, ok := tab.Lookup(tc.model, "")
		if ok != (tc.input != 0) || r.Input != tc.input {
			t.Errorf("%s: %s priced %v at %v, want %v", tc.name, tc.model, ok, r.Input, tc.input)
		}
		if tc.asOf != "" && tab.AsOf != tc.asOf {
			t.Errorf("%s: as_of %q, want %q", tc.name, tab.AsOf, tc.asOf)
		}
		if tc.warning == "" {
			if len(warnings) > 0 {
				t.Errorf("%s: warnings %q", tc.name, warnings)
			}
		} else if len(warnings) != 1 || !regexp.MustCompile(tc.warning).MatchString(warnings[0]) {
			t.Errorf("%s: warnings %q, want one matching %s", tc.name, warnings, tc.warning)
		}
	}
}

// TestRefused: a file with a rate that is not a price is refused whole,
// naming the file and the line; the table is then the built-in one.
func TestRefused(t *testing.T) {
	ok := rowText("a", "1.0")
	for _, tc := range []struct {
		name, text, want string
	}{
		{"zero", ok + "\n" + rowText("b", "0"), `prices\.toml: line 11: input = 0 is not a price`},
		{"a million", rowText("b", "1e6") + "\n" + ok, `prices\.toml: line 3: input = 1e\+06 is not a price`},
		{"negative", ok + rowText("b", "-5"), `prices\.toml: line 10: input = -5 is not a price`},
		{"NaN", ok + rowText("b", "nan"), `prices\.toml: line 10: input = NaN is not a price`},
		{"-NaN", rowText("b", "-nan"), `prices\.toml: line 3: input = NaN is not a price`},
		{"Inf", ok + rowText("b", "+inf"), `prices\.toml: line 10: input = \+Inf is not a price`},
		{"a band's", ok + "band_above = 100\n[model.band]\ninput = 1\noutput = 0.0\n", `prices\.toml: line 11: band\.output = 0 is not a price`},
		{"an inline band's", ok + "band_above = 100\nband = { input = 1, output = 1e9 }\n", `prices\.toml: line 9: band\.output = 1e\+09 is not a price`},
		{"an inline row's, where the row is named", "model = [{id = \"b\", input = 0, output = 1}]\n", `prices\.toml: model "b": input = 0 is not a price`},
		{"a missing rate", "[[model]]\nid = \"b\"\ninput = 1\n", `prices\.toml: model "b" has no output rate`},
		{"no id", "[[model]]\ninput = 1\noutput = 5\ncache_read = 0.1\ncache_write_5m = 1\ncache_write_1h = 2\n", `prices\.toml: model "": a model row has no id`},
		{"not TOML", "as_of = \"2030-01-01\n[[model\n", `prices\.toml: toml: line 1`},
		{"past MaxSize", strings.Repeat("# a comment\n", MaxSize/12+1), `prices\.toml: file is larger than expected \(65544 bytes, at most 65536\)`},
		{"a rate that is text", "[[model]]\nid = \"b\"\ninput = \"1\"\n", `prices\.toml: toml: .*input`},
	} {
		for _, project := range []bool{false, true} {
			user, proj := tc.text, ""
			if project {
				user, proj = "", tc.text
			}
			tab, _, err := loadWith(t, user, proj)
			if err == nil || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("%s (project %v): err = %v, want %s", tc.name, project, err, tc.want)
			}
			if len(tab.Files) != 0 || len(tab.Rows) != len(mustEmbedded().Rows) {
				t.Errorf("%s: the table after a refusal is not the built-in one: %v", tc.name, tab.Files)
			}
		}
	}
}

func mustEmbedded() *prices.Table {
	t, _ := prices.Embedded()
	return t
}

// TestNotRegular: a price file that is a link to a device is refused
// without being read (it would never end).
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "prices.toml")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Skip(err)
	}
	if _, _, err := Read(link); err == nil {
		t.Error("read /dev/zero as a price file")
	}
}

// TestUserReprices: the user's own file may change a priced model's rates
// within a decade of what the model is charged (a discount, a new list
// price), not to a rate that makes it free or denies every capped call,
// though the rate is a price for some model (issue 31: the agent can write
// that file too).
func TestUserReprices(t *testing.T) {
	opus := func(input, cacheRead string) string {
		return "[[model]]\nid = \"claude-opus-4-6\"\ninput = " + input + "\noutput = 25.0\ncache_read = " + cacheRead + "\ncache_write_5m = 6.25\ncache_write_1h = 10.0\n"
	}
	for _, tc := range []struct {
		name, user, want string // want: a regexp the error matches, "" for none
	}{
		{"a 90% discount", opus("0.5", "0.05"), ""},
		{"ten times dearer", opus("50", "5"), ""},
		{"a cheap model's input", opus("0.1", "0.5"), `model "claude-opus-4-6": input = 0.1 is not a price for claude-opus-4-6 \(its input rates lie from 0.5 to 50 `},
		{"a cache read of 20", opus("5", "20"), `cache_read = 20 is not a price for claude-opus-4-6`},
		{"a cache read of a hundredth of a cent", opus("5", "0.01"), `cache_read = 0.01 is not a price for claude-opus-4-6`},
		{"through a dated id", strings.Replace(opus("5", "0.001"), "claude-opus-4-6", "claude-opus-4-6-20260101", 1), `cache_read = 0.001 is not a price for claude-opus-4-6`},
		{"the fast row, by its own rates", opus("2", "0.5") + "speed = \"fast\"\n", `at speed "fast": input = 2 is not a price for claude-opus-4-6 \(its input rates lie from 3 to 300 `},
		{"a band within the model's", "[[model]]\nid = \"claude-haiku-5-5\"\ninput = 0.1\noutput = 0.5\ncache_read = 0.01\ncache_write_5m = 0.125\ncache_write_1h = 0.2\nband_above = 100000\n[model.band]\ninput = 5\noutput = 25\ncache_read = 0.5\ncache_write_5m = 6.25\ncache_write_1h = 10\n", ""},
		{"a band past it", "[[model]]\nid = \"claude-haiku-5-5\"\ninput = 0.1\noutput = 0.5\ncache_read = 0.01\ncache_write_5m = 0.125\ncache_write_1h = 0.2\nband_above = 100000\n[model.band]\ninput = 6\noutput = 25\ncache_read = 0.5\ncache_write_5m = 6.25\ncache_write_1h = 10\n", `band\.input = 6 is not a price for claude-haiku-5-5`},
		{"a new model is bounded by its kind only", rowText("my-model", "200"), ""},
	} {
		tab, _, err := loadWith(t, tc.user, "")
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
			t.Errorf("%s: err = %v, want %s", tc.name, err, tc.want)
		}
		if err != nil && len(tab.Files) != 0 {
			t.Errorf("%s: a refused file was laid over the table", tc.name)
		}
	}
}
