package notice

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// updateGolden rewrites testdata/*.txt: go test ./internal/notice -update.
var updateGolden = flag.Bool("update", false, "rewrite the golden notices")

// goldenCases are the notices a reader checks by eye in testdata: each
// level, with and without the relay's dollars; the verdict against
// carrying on (relaying pays, does not pay yet) and against letting
// Claude Code compact (relaying saves, costs more), under each policy and
// each choice; the window's words, manual mode, the offer and the
// plugin's skill names.
func goldenCases() map[string]Facts {
	relay := func(against string, net float64) lines.Verdict {
		return lines.Verdict{Choice: lines.ChoiceRelay, Against: against, NetUSD: net, Policy: tuning.PreferRelay}
	}
	pays := &lines.Money{UpfrontUSD: 1.2175, SavingUSD: 0.9825, CarryOnUSD: 5.825, Share: 0.8, CarryOnLowUSD: 2.69, CarryOnHighUSD: 12.04,
		Source: "an estimate (no session measured yet)", PaceFrom: "the prior fitted on 186 real sessions",
		Verdict: relay(lines.ChoiceCarryOn, 0.9825)}
	notYet := &lines.Money{UpfrontUSD: 1.005, SavingUSD: -0.125, CarryOnUSD: 4.3, Verdict: relay(lines.ChoiceCarryOn, -0.125)}
	carryOn := *notYet
	carryOn.Verdict.Choice, carryOn.Verdict.Policy = lines.ChoiceCarryOn, tuning.PreferCheapest
	saves := &lines.Money{UpfrontUSD: 1.2, SavingUSD: 1.31, CarryOnUSD: 6.4, Share: 0.8, CarryOnLowUSD: 2.96, CarryOnHighUSD: 13.23,
		Compacts: true, CompactAt: 167_000, CompactUSD: 5.4, Verdict: relay(lines.ChoiceCompact, 0.31)}
	costs := &lines.Money{UpfrontUSD: 1.2, SavingUSD: 0.7, CarryOnUSD: 6.4, Compacts: true, CompactAt: 167_000, CompactUSD: 5.12,
		Verdict: relay(lines.ChoiceCompact, -0.42)}
	compact := *costs
	compact.Verdict.Choice, compact.Verdict.Policy = lines.ChoiceCompact, tuning.PreferCheapest
	zone := &lines.Money{UpfrontUSD: 1.1, SavingUSD: 0.2, CarryOnUSD: 4.1, Compacts: true, CompactAt: 167_000, CompactUSD: 4.9,
		Verdict: relay(lines.ChoiceCompact, 1.05)}
	low := lines.Lines{Warn: lines.Line{Tokens: 68_000, SetBy: lines.Priced, SavingUSD: 0.2}, Pause: lines.Line{Tokens: 68_000, SetBy: lines.Priced, SavingUSD: 0.8}}
	priced := lines.Lines{Warn: lines.Line{Tokens: 169_872, SetBy: lines.Priced, SavingUSD: 0.2}, Pause: lines.Line{Tokens: 200_641, SetBy: lines.Priced, SavingUSD: 0.8}}
	window := lines.Lines{Warn: lines.Line{Tokens: 109_000, SetBy: lines.Window}, Pause: lines.Line{Tokens: 139_000, SetBy: lines.Window}}
	caps := lines.Lines{Warn: lines.Line{Tokens: 300_000, SetBy: lines.Cap}, Pause: lines.Line{Tokens: 400_000, SetBy: lines.Cap}}
	ww := "the window: Claude Code 2.1.x compacts this 200k window at ~167k, seen in 3 of your sessions"
	return map[string]Facts{
		"pause_priced":           {Level: climb.Pause, Reading: 210_000, Lines: priced, Money: pays},
		"warn_priced":            {Level: climb.Warn, Reading: 171_000, Lines: priced, Money: pays},
		"pause_not_yet":          {Level: climb.Pause, Reading: 410_000, Lines: caps, Money: notYet},
		"pause_cheapest_carry":   {Level: climb.Pause, Reading: 410_000, Lines: caps, Money: &carryOn},
		"pause_window_saves":     {Level: climb.Pause, Reading: 140_000, Lines: window, Money: saves, WindowWords: ww},
		"warn_window_saves":      {Level: climb.Warn, Reading: 110_000, Lines: window, Money: saves, WindowWords: ww, Offer: true},
		"pause_window_compacts":  {Level: climb.Pause, Reading: 140_000, Lines: window, Money: costs, WindowWords: ww, Offer: true},
		"pause_cheapest_compact": {Level: climb.Pause, Reading: 140_000, Lines: window, Money: &compact, WindowWords: ww, Offer: true},
		"warn_cheapest_compact":  {Level: climb.Warn, Reading: 110_000, Lines: window, Money: &compact, WindowWords: ww},
		"pause_priced_compacts":  {Level: climb.Pause, Reading: 70_000, Lines: low, Money: zone},
		"warn_cap":               {Level: climb.Warn, Reading: 310_000, Lines: caps},
		"pause_manual_plugin":    {Level: climb.Pause, Reading: 410_000, Lines: caps, Manual: true, SkillPrefix: "context-budget:"},
	}
}

// TestGolden holds the notices to testdata/<case>.txt, and each to at
// most 1,000 characters with at most one dollar figure (design §6):
// priced, exactly one.
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
		if n := len([]rune(got)); n > 1000 {
			t.Errorf("%s: a notice of %d characters; 1,000 at most", name, n)
		}
		if n, want := strings.Count(got, "$"), min(boolInt(f.Money != nil), 1); n != want {
			t.Errorf("%s: %d dollar figures, want %d:\n%s", name, n, want, got)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestOneWay: the dollars read one way: one net figure, the verdict's,
// against the real alternative; "does not pay yet" against carrying on
// where relaying does not; what a compaction loses named where
// compacting is cheaper.
func TestOneWay(t *testing.T) {
	c := goldenCases()
	for name, want := range map[string][]string{
		"pause_priced":          {"Relaying now saves about $0.98 over the next 100k tokens against carrying on."},
		"pause_not_yet":         {"Relaying does not pay yet: over the next 100k tokens it costs about $0.13 more than carrying on."},
		"pause_window_saves":    {"compacts this 200k window at ~167k", "Relaying now saves about $0.31 over the next 100k tokens against letting Claude Code compact."},
		"pause_window_compacts": {"Over the next 100k tokens, relaying now costs about $0.42 more than letting Claude Code compact, whose losses are not priced."},
		"pause_priced_compacts": {"(priced: where relaying saves enough to pause). Relaying now saves about $1.05 over the next 100k tokens against letting Claude Code compact at ~167k."},
	} {
		got := Text(c[name])
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %q:\n%s", name, w, got)
			}
		}
	}
}

// TestToldToRelayIffChoice: a notice tells the agent to relay (or offer
// /relay) exactly when its verdict's choice is relay; otherwise it says
// not to stop, and where Claude Code compacts, to reach a clean point
// before it.
func TestToldToRelayIffChoice(t *testing.T) {
	for name, f := range goldenCases() {
		got, short := Text(f), Short(f)
		relays := f.Money == nil || f.Money.Verdict.Choice == lines.ChoiceRelay
		told := strings.Contains(got, "run "+f.Skill("relay")) || strings.Contains(got, "offering "+f.Skill("relay"))
		if told != relays {
			t.Errorf("%s: told to relay %v, verdict %+v:\n%s", name, told, f.Money, got)
		}
		if stops := strings.Contains(short, "told to stop") || strings.Contains(short, "steer to a stopping point"); stops != relays {
			t.Errorf("%s: the person's line says stop %v, verdict relays %v: %q", name, stops, relays, short)
		}
		if relays != strings.Contains(got, "if you are carrying out a plan") {
			t.Errorf("%s: the plan section goes with a relay:\n%s", name, got)
		}
		if relays {
			continue
		}
		if !strings.Contains(got, "Do not stop for this") {
			t.Errorf("%s: a notice that does not relay must say not to stop:\n%s", name, got)
		}
		if f.Money.Verdict.Choice == lines.ChoiceCompact {
			for _, w := range []string{"will compact this session near ~167k", "Reach a clean point before then"} {
				if !strings.Contains(got, w) {
					t.Errorf("%s lacks %q:\n%s", name, w, got)
				}
			}
			if !strings.Contains(short, "clean point before Claude Code compacts") {
				t.Errorf("%s: %q", name, short)
			}
		}
	}
}

// TestShort: the person's line is short, says the reading, the line and
// the verdict's net figure, and what the agent was told.
func TestShort(t *testing.T) {
	for name, f := range goldenCases() {
		got := Short(f)
		if n := len([]rune(got)); n > 200 {
			t.Errorf("%s: %d characters: %q", name, n, got)
		}
		if !strings.Contains(got, "~"+K(f.Reading)+" tokens, past the ") {
			t.Errorf("%s: %q", name, got)
		}
		if n, want := strings.Count(got, "$"), boolInt(f.Money != nil); n != want {
			t.Errorf("%s: %d dollar figures, want %d: %q", name, n, want, got)
		}
	}
	c := goldenCases()
	for name, want := range map[string]string{
		"pause_priced":           "Context budget: ~210k tokens, past the 201k pause line; relaying now saves ~$0.98 vs carrying on. The agent was told to stop and relay.",
		"pause_not_yet":          "Context budget: ~410k tokens, past the 400k pause line; relaying costs ~$0.13 more than carrying on. The agent was told to stop and relay.",
		"pause_window_compacts":  "Context budget: ~140k tokens, past the 139k pause line; relaying costs ~$0.42 more than compacting at ~167k. The agent was told to stop and relay.",
		"pause_cheapest_compact": "Context budget: ~140k tokens, past the 139k pause line; relaying costs ~$0.42 more than compacting at ~167k. The agent was told to go on to a clean point before Claude Code compacts.",
		"pause_cheapest_carry":   "Context budget: ~410k tokens, past the 400k pause line; relaying costs ~$0.13 more than carrying on. The agent was told to go on.",
		"warn_cap":               "Context budget: ~310k tokens, past the 300k warning line. The agent was told to steer to a stopping point.",
		"pause_manual_plugin":    "Context budget: ~410k tokens, past the 400k pause line. The agent was told to stop and offer /relay.",
	} {
		if got := Short(c[name]); got != want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
}

// TestLongestNotice: the longest notice the words can make, a warning
// set by a window whose point came from the longest source, with the
// relay's ending and the offer or the compaction's words, stays within
// 1,000 characters (design §6).
func TestLongestNotice(t *testing.T) {
	w := window.Window{Tokens: 1_000_000, CompactsAt: 1_000_000 - 33_000, CompactSource: window.PointEnv, Version: "2.1.332"}
	ls := lines.Lines{Warn: lines.Line{Tokens: 909_000, SetBy: lines.Window}, Pause: lines.Line{Tokens: 939_000, SetBy: lines.Window}}
	for _, choice := range []string{lines.ChoiceRelay, lines.ChoiceCompact} {
		for _, net := range []float64{99.99, -99.99} {
			m := &lines.Money{Compacts: true, CompactAt: w.CompactsAt,
				Verdict: lines.Verdict{Choice: choice, Against: lines.ChoiceCompact, NetUSD: net, Policy: tuning.PreferCheapest}}
			for _, level := range []climb.Level{climb.Warn, climb.Pause} {
				f := Facts{Level: level, Reading: 910_000, Lines: ls, Money: m, WindowWords: WindowWords(w), Offer: true, SkillPrefix: "context-budget:"}
				if got := Text(f); len([]rune(got)) > 1000 {
					t.Errorf("%v %s %v: %d characters:\n%s", level, choice, net, len([]rune(got)), got)
				}
			}
		}
	}
}
