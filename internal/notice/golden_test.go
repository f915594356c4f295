package notice

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
)

// updateGolden rewrites testdata/*.txt: go test ./internal/notice -update.
var updateGolden = flag.Bool("update", false, "rewrite the golden notices")

// goldenCases are the notices a reader checks by eye in testdata: each
// level, with and without the relay's dollars, relaying that pays and
// that does not yet, each choice cheapest, the window's words, manual
// mode and the plugin's skill names.
func goldenCases() map[string]Facts {
	pays := &lines.Money{UpfrontUSD: 1.2175, SavingUSD: 0.9825, CarryOnUSD: 5.825, Share: 0.8, CarryOnLowUSD: 2.69, CarryOnHighUSD: 12.04,
		Source: "an estimate (no session measured yet)", PaceFrom: "the prior fitted on 186 real sessions", Cheapest: lines.ChoiceRelay}
	notYet := &lines.Money{UpfrontUSD: 1.005, SavingUSD: -0.125, CarryOnUSD: 4.3, Cheapest: lines.ChoiceCarryOn}
	compacts := &lines.Money{UpfrontUSD: 1.2, SavingUSD: 0.31, CarryOnUSD: 6.4, Share: 0.8, CarryOnLowUSD: 2.96, CarryOnHighUSD: 13.23,
		Compacts: true, CompactAt: 167_000, CompactUSD: 5.12, Cheapest: lines.ChoiceCompact}
	priced := lines.Lines{Warn: lines.Line{Tokens: 169_872, SetBy: lines.Priced, SavingUSD: 0.2}, Pause: lines.Line{Tokens: 200_641, SetBy: lines.Priced, SavingUSD: 0.8}}
	window := lines.Lines{Warn: lines.Line{Tokens: 109_000, SetBy: lines.Window}, Pause: lines.Line{Tokens: 139_000, SetBy: lines.Window}}
	caps := lines.Lines{Warn: lines.Line{Tokens: 300_000, SetBy: lines.Cap}, Pause: lines.Line{Tokens: 400_000, SetBy: lines.Cap}}
	ww := "the window: Claude Code 2.1.x compacts this 200k window at ~167k, seen in 3 of your sessions"
	return map[string]Facts{
		"pause_priced":          {Level: climb.Pause, Reading: 210_000, Lines: priced, Money: pays},
		"warn_priced":           {Level: climb.Warn, Reading: 171_000, Lines: priced, Money: pays},
		"pause_not_yet":         {Level: climb.Pause, Reading: 140_000, Lines: window, Money: notYet, WindowWords: ww},
		"pause_window_compacts": {Level: climb.Pause, Reading: 140_000, Lines: window, Money: compacts, WindowWords: ww, Offer: true},
		"warn_cap":              {Level: climb.Warn, Reading: 310_000, Lines: caps},
		"pause_manual_plugin":   {Level: climb.Pause, Reading: 410_000, Lines: caps, Manual: true, SkillPrefix: "context-budget:"},
	}
}

// TestGolden holds the notices to testdata/<case>.txt, and each priced
// one to about 900 characters (design §6).
func TestGolden(t *testing.T) {
	for name, f := range goldenCases() {
		got := Text(f)
		file := filepath.Join("testdata", name+".txt")
		if *updateGolden {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(got+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if got+"\n" != string(want) {
			t.Errorf("%s differs from %s (go test ./internal/notice -update):\n%s", name, file, got)
		}
		if f.Money != nil && !f.Offer && len([]rune(got)) > 950 {
			t.Errorf("%s: a priced notice of %d characters; about 900 at most", name, len([]rune(got)))
		}
	}
}

// TestOneWay: the dollars read one way: one net figure for the relay,
// never an up-front cost and a saving to subtract, and "does not pay
// yet" where it does not.
func TestOneWay(t *testing.T) {
	c := goldenCases()
	for name, want := range map[string][]string{
		"pause_priced":          {"Relaying now saves about $0.98 over the next 100k tokens, after its $1.22 up-front cost", "carrying on costs about $5.83 (8 in 10 sessions $2.69–$12.04)", "relaying is cheapest"},
		"pause_not_yet":         {"Relaying does not pay yet: over the next 100k tokens it costs about $0.13 more than carrying on, its $1.01 up-front cost included", "carrying on is cheapest"},
		"pause_window_compacts": {"letting Claude Code compact at ~167k about $5.12", "compacting is cheapest, though what it loses is not priced"},
	} {
		got := Text(c[name])
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %q:\n%s", name, w, got)
			}
		}
		if strings.Contains(got, "costs about $1.22 up front") || strings.Contains(got, "and saves") {
			t.Errorf("%s puts two figures to subtract:\n%s", name, got)
		}
	}
	for name, f := range c {
		if got := Text(f); !strings.Contains(got, "if you are carrying out a plan") {
			t.Errorf("%s names the plan section unconditionally:\n%s", name, got)
		}
	}
}

// TestShort: the person's line is short, says the reading, the line and
// the relay's net figure, and what the agent was told.
func TestShort(t *testing.T) {
	for name, f := range goldenCases() {
		got := Short(f)
		if n := len([]rune(got)); n > 200 {
			t.Errorf("%s: %d characters: %q", name, n, got)
		}
		if !strings.Contains(got, "~"+K(f.Reading)+" tokens, past the ") {
			t.Errorf("%s: %q", name, got)
		}
	}
	c := goldenCases()
	for name, want := range map[string]string{
		"pause_priced":        "Context budget: ~210k tokens, past the 201k pause line; relaying now saves ~$0.98 over the next 100k tokens. The agent was told to stop and relay.",
		"pause_not_yet":       "Context budget: ~140k tokens, past the 139k pause line; relaying does not pay yet. The agent was told to stop and relay.",
		"warn_cap":            "Context budget: ~310k tokens, past the 300k warning line. The agent was told to steer to a stopping point.",
		"pause_manual_plugin": "Context budget: ~410k tokens, past the 400k pause line. The agent was told to stop and offer /relay.",
	} {
		if got := Short(c[name]); got != want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
}
