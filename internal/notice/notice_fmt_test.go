package notice

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
)

// The fmt versions of USD and Text, as they were before Text was built by
// concatenation: the reference the words are held to.

func spreadFmt(m *lines.Money) string {
	if m.Share <= 0 {
		return ""
	}
	return fmt.Sprintf("%d in 10 sessions %s–%s", int(math.Round(m.Share*10)), usdFmt(m.CarryOnLowUSD), usdFmt(m.CarryOnHighUSD))
}

func usdFmt(v float64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	cents := int64(math.Floor(v*100 + 0.5 + 1e-6))
	return fmt.Sprintf("%s$%d.%02d", sign, cents/100, cents%100)
}

func whyFmt(l lines.Line, name string, f Facts) string {
	switch l.SetBy {
	case lines.Priced:
		return fmt.Sprintf("priced: relaying there saves %s over the next 100k tokens", usdFmt(l.SavingUSD))
	case lines.Env:
		return "set in the environment by MUTHUR_CONTEXT_BUDGET_" + strings.ToUpper(name)
	case lines.Window:
		return "set by " + f.WindowWords
	}
	return "the fixed cap"
}

func textFmt(f Facts) string {
	var b strings.Builder
	switch f.Level {
	case climb.Warn:
		l := f.Lines.Warn
		fmt.Fprintf(&b, "Context budget: this session carries ~%s tokens of context, past the %s warning line (%s).",
			K(f.Reading), K(l.Tokens), whyFmt(l, "warn", f))
	case climb.Pause:
		l := f.Lines.Pause
		fmt.Fprintf(&b, "Context budget: this session carries ~%s tokens of context, past the %s pause line (%s).",
			K(f.Reading), K(l.Tokens), whyFmt(l, "pause", f))
	default:
		return ""
	}
	if m := f.Money; m != nil {
		verb := "saves"
		saving := m.SavingUSD
		if saving < 0 {
			verb, saving = "costs", -saving
		}
		source := m.Source
		if m.PaceFrom != "" {
			source += "; the pace of work from " + m.PaceFrom
		}
		carry := usdFmt(m.CarryOnUSD)
		if sp := spreadFmt(m); sp != "" {
			carry += " (" + sp + ")"
		}
		fmt.Fprintf(&b, " Relaying now costs about %s up front (the summary turn and the successor's re-orientation, priced from %s) and %s %s over the next 100k tokens of work against carrying on at about %s. Give the operator these figures in your report.",
			usdFmt(m.UpfrontUSD), source, verb, usdFmt(saving), carry)
	}
	if f.Level == climb.Warn {
		room := max(f.Lines.Pause.Tokens-f.Reading, 0)
		fmt.Fprintf(&b, "\n\nThe pause line is at %s: about %s tokens of room. Judge whether the work in hand fits in that room. If it does, finish it, and say in your report that the context-budget warning came and why you did not stop. If it does not, steer to the best stopping point you can reach within that room, start nothing you cannot finish before it, and stop there as the %s skill's \"Stopping partway releases the plan\" says; then end as below. At the pause line this notice comes back as the pause.",
			K(f.Lines.Pause.Tokens), K(room), f.Skill("go"))
	} else {
		fmt.Fprintf(&b, "\n\nStop now, wherever the work stands, unless it is literally one small step (under ~20k tokens) from done; then finish that step and say why. Commit what is in hand, release the plan as the %s skill's \"Stopping partway releases the plan\" says, push, and end as below.", f.Skill("go"))
	}
	if f.Manual {
		fmt.Fprintf(&b, "\n\nEnding: tell the operator that the session paused for its context budget, and end your turn offering %s; do not run it unasked.", f.Skill("relay"))
	} else {
		fmt.Fprintf(&b, "\n\nEnding: without asking and with no argument, run %s; its report says the session relayed on its own for its context budget.", f.Skill("relay"))
		if f.Offer {
			b.WriteString(" In that report, offer once, in plain words, to ask first in future, such as: \"If you'd rather I ask before relaying, say so.\" Name no file or setting.")
		}
	}
	return b.String()
}

// TestTextAsFmt: Text gives the fmt version's words, byte for byte, for
// every level, rule, money shape, mode and skill prefix.
func TestTextAsFmt(t *testing.T) {
	moneys := []*lines.Money{nil,
		{UpfrontUSD: 0.78, SavingUSD: 0.02, CarryOnUSD: 5.29, Source: "this session's own orientation"},
		{UpfrontUSD: 1.005, SavingUSD: -0.125, CarryOnUSD: 12.345, Source: "the ledger", PaceFrom: "the prior",
			Share: 0.8, CarryOnLowUSD: 2.45, CarryOnHighUSD: 10.94},
		{UpfrontUSD: 0, SavingUSD: 0, CarryOnUSD: 1234.5, Source: "x", Share: 0.5, CarryOnLowUSD: 0.004, CarryOnHighUSD: 99.995},
	}
	n := 0
	for _, level := range []climb.Level{climb.None, climb.Warn, climb.Pause} {
		for _, setBy := range []lines.SetBy{lines.Priced, lines.Env, lines.Window, lines.Cap} {
			for _, m := range moneys {
				for _, manual := range []bool{false, true} {
					for _, offer := range []bool{false, true} {
						for _, prefix := range []string{"", "context-budget:"} {
							f := Facts{Level: level, Reading: 165_432, Money: m, Manual: manual, Offer: offer, SkillPrefix: prefix,
								WindowWords: "the 200k window's compaction point (window from the default)"}
							f.Lines.Warn = lines.Line{Tokens: 120_000, SetBy: setBy, SavingUSD: 0.2}
							f.Lines.Pause = lines.Line{Tokens: 170_500, SetBy: setBy, SavingUSD: 0.805}
							if got, want := Text(f), textFmt(f); got != want {
								t.Fatalf("%+v:\n got %q\nwant %q", f, got, want)
							}
							n++
						}
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no case")
	}
}

// FuzzUSD: USD gives the fmt version's text for any amount.
func FuzzUSD(f *testing.F) {
	for _, v := range []float64{0, 5.825, -0.125, 0.004, 0.005, 99.995, 1e9, -1e-9, math.NaN(), math.Inf(1), math.Inf(-1)} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if got, want := USD(v), usdFmt(v); got != want {
			t.Fatalf("USD(%v) = %q, fmt gives %q", v, got, want)
		}
	})
}
