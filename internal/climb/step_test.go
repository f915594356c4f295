package climb

import (
	"fmt"
	"slices"
	"testing"
)

// TestStep pins the once-per-climb rule and checks that Advance, which
// applies it to the state file, decides alike.
func TestStep(t *testing.T) {
	caps := LineTokens{Warn: 300_000, Pause: 400_000}
	moved := LineTokens{Warn: 200_000, Pause: 250_000}
	inverted := LineTokens{Warn: 200_000, Pause: 152_000}
	type call struct {
		reading int64
		lines   LineTokens
	}
	tests := []struct {
		name  string
		calls []call
		want  []Level
	}{
		{"climb", []call{{100_000, caps}, {300_000, caps}, {350_000, caps}, {400_000, caps}, {450_000, caps}},
			[]Level{None, Warn, None, Pause, None}},
		{"straight past the pause", []call{{410_000, caps}, {420_000, caps}}, []Level{Pause, None}},
		{"a drop under the warn line re-arms", []call{{310_000, caps}, {50_000, caps}, {320_000, caps}},
			[]Level{Warn, None, Warn}},
		{"a dip above it does not", []call{{310_000, caps}, {300_001, caps}, {399_999, caps}}, []Level{Warn, None, None}},
		{"a line that moves down does not re-fire", []call{{310_000, caps}, {230_000, moved}}, []Level{Warn, None}},
		{"but crossing its pause does", []call{{310_000, caps}, {260_000, moved}}, []Level{Warn, Pause}},
		{"re-arm needs the reading under the old and the new warn line", []call{{310_000, caps}, {240_000, moved}, {199_000, moved}, {210_000, moved}},
			[]Level{Warn, None, None, Warn}},
		// A warn line fixed in the environment may lie past a priced or
		// window pause line: the climb starts at the lower line, and a
		// reading between the two is still in it.
		{"a warn line past the pause fires the pause once", []call{{100_000, inverted}, {160_000, inverted}, {170_000, inverted}, {190_000, inverted}, {210_000, inverted}},
			[]Level{None, Pause, None, None, None}},
		{"and re-arms under the pause line", []call{{160_000, inverted}, {140_000, inverted}, {160_000, inverted}},
			[]Level{Pause, None, Pause}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var rec Record
			var got, advanced []Level
			for _, c := range tt.calls {
				var fire Level
				rec, fire = StepIn(rec, c.reading, c.lines, rec.Compactions)
				got = append(got, fire)
				level, err := AdvanceWith(dir, "s", c.reading, c.lines, Options{})
				if err != nil {
					t.Fatal(err)
				}
				advanced = append(advanced, level)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Step fired %v, want %v", got, tt.want)
			}
			if fmt.Sprint(advanced) != fmt.Sprint(got) {
				t.Errorf("Advance fired %v, Step %v", advanced, got)
			}
		})
	}
}
