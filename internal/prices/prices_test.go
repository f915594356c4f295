package prices

import (
	"math"
	"slices"
	"testing"

	"github.com/muthur/context-budget/internal/transcript"
)

func TestEmbeddedParses(t *testing.T) {
	tab, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if tab.AsOf == "" || tab.AsOf != EmbeddedAsOf() {
		t.Errorf("as_of %q, EmbeddedAsOf %q", tab.AsOf, EmbeddedAsOf())
	}
	for _, id := range []string{"claude-fable-5", "claude-opus-5-5", "claude-opus-5", "claude-opus-4-8", "claude-opus-4-7",
		"claude-opus-4-6", "claude-opus-4-5", "claude-sonnet-5-5", "claude-sonnet-5", "claude-sonnet-4-6",
		"claude-sonnet-4-5", "claude-haiku-5-5", "claude-haiku-4-5"} {
		if _, ok := tab.Lookup(id, ""); !ok {
			t.Errorf("no row for %s", id)
		}
	}
}

func TestLookup(t *testing.T) {
	tab, _ := Embedded()
	for _, tc := range []struct {
		model, speed string
		ok           bool
		input        float64
	}{
		{"claude-opus-4-6", "", true, 5},
		{"claude-opus-4-6", "standard", true, 5},
		{"claude-opus-4-6", "fast", true, 30},
		{"claude-opus-4-5-20251101", "", true, 5},
		{"claude-haiku-4-5-20251001", "", true, 1},
		{"claude-opus-4-6[1m]", "", true, 5},
		{"claude-opus-4-5", "fast", false, 0},
		{"gpt-9", "", false, 0},
		{"<synthetic>", "", false, 0},
	} {
		r, ok := tab.Lookup(tc.model, tc.speed)
		if ok != tc.ok || r.Input != tc.input {
			t.Errorf("Lookup(%q, %q) = %v, %v; want input %v, %v", tc.model, tc.speed, r.Input, ok, tc.input, tc.ok)
		}
	}
}

func TestCost(t *testing.T) {
	tab, _ := Embedded()
	r, _ := tab.Lookup("claude-opus-4-6", "")
	u := &transcript.Usage{InputTokens: 1_000_000, CacheReadInputTokens: 1_000_000, OutputTokens: 1_000_000,
		CacheCreationInputTokens: 2_000_000, CacheCreation: &transcript.CacheCreation{Ephemeral5m: 1_000_000, Ephemeral1h: 1_000_000}}
	if got, want := r.Cost(u), 5+0.5+25+6.25+10.0; math.Abs(got-want) > 1e-9 {
		t.Errorf("cost %v, want %v", got, want)
	}
	// Haiku 5.5 bills a whole request above 100k at the band's rates.
	h, _ := tab.Lookup("claude-haiku-5-5", "")
	small := &transcript.Usage{InputTokens: 100_000, OutputTokens: 1000}
	big := &transcript.Usage{InputTokens: 100_001, OutputTokens: 1000}
	if got, want := h.Cost(small), (100_000*0.10+1000*0.50)/1e6; math.Abs(got-want) > 1e-12 {
		t.Errorf("haiku small %v, want %v", got, want)
	}
	if got, want := h.Cost(big), (100_001*0.50+1000*2.50)/1e6; math.Abs(got-want) > 1e-12 {
		t.Errorf("haiku big %v, want %v", got, want)
	}
}

// TestEmbeddedCopy: a caller's change to the table it got (override.Load
// lays files over it) does not reach the next caller.
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

func TestSet(t *testing.T) {
	tab, _ := Embedded()
	n := len(tab.Rows)
	tab.Set(Row{ID: "Claude-Opus-4-6", Speed: "standard", Rates: Rates{Input: 7}})
	tab.Set(Row{ID: "my-model", Rates: Rates{Input: 1}})
	if len(tab.Rows) != n+1 {
		t.Errorf("%d rows, want %d", len(tab.Rows), n+1)
	}
	if r, _ := tab.Lookup("claude-opus-4-6", ""); r.Input != 7 {
		t.Errorf("replaced row: input %v", r.Input)
	}
	if r, _ := tab.Lookup("claude-opus-4-6", "fast"); r.Input != 30 {
		t.Errorf("the fast row moved: input %v", r.Input)
	}
	if r, ok := tab.Lookup("my-model", ""); !ok || r.Input != 1 {
		t.Errorf("added row: %v %v", r, ok)
	}
}

func TestOverrideFiles(t *testing.T) {
	env := map[string]string{"HOME": "/h"}
	getenv := func(k string) string { return env[k] }
	if got, want := OverrideFiles("/p", getenv), []string{"/h/.config/context-budget/prices.toml", "/p/.claude/context-budget/prices.toml"}; !slices.Equal(got, want) {
		t.Errorf("OverrideFiles = %q, want %q", got, want)
	}
	env["XDG_CONFIG_HOME"] = "/x"
	if got, want := OverrideFiles("", getenv), []string{"/x/context-budget/prices.toml"}; !slices.Equal(got, want) {
		t.Errorf("OverrideFiles = %q, want %q", got, want)
	}
}
