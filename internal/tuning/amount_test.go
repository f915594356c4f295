package tuning

import (
	"errors"
	"testing"
)

func TestParseAmount(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Amount
		ok   bool
	}{
		{"$5", Amount{USD: 5}, true},
		{"5usd", Amount{USD: 5}, true},
		{" 5 USD ", Amount{USD: 5}, true},
		{"0.50$", Amount{USD: 0.5}, true},
		{"2m", Amount{Tokens: 2_000_000}, true},
		{"500k", Amount{Tokens: 500_000}, true},
		{"1.5m tokens", Amount{Tokens: 1_500_000}, true},
		{"120000 tokens", Amount{Tokens: 120_000}, true},
		{"120000", Amount{}, false},
		{"5", Amount{}, false},
		{"$1e308", Amount{}, false},
		{"$1000001", Amount{}, false},
		{"$1000000", Amount{USD: 1e6}, true},
		{"2000000m", Amount{}, false},
		{"", Amount{}, false},
		{"$", Amount{}, false},
		{"$-1", Amount{}, false},
		{"0", Amount{}, false},
		{"$NaN", Amount{}, false},
		{"$inf", Amount{}, false},
		{"5x", Amount{}, false},
		{"1e20", Amount{}, false},
	} {
		got, err := ParseAmount(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseAmount(%q) = %+v, %v; want %+v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
	if _, err := ParseAmount("  "); err != ErrEmpty {
		t.Errorf("blank amount: %v, want ErrEmpty", err)
	}
	if _, err := ParseAmount("5"); !errors.Is(err, ErrNoUnit) {
		t.Errorf("a bare 5: %v, want ErrNoUnit", err)
	}
	if _, err := ParseAmount("$1e308"); err == nil || len(err.Error()) > 80 {
		t.Errorf("$1e308: %v, want a short error", err)
	}
}

// FuzzParseAmount: any text is an amount or an error, never a panic, and
// an amount is positive in exactly one unit and reads back as itself.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"$5", "5usd", "2m", "500k", "1.5m tokens", "", "$", "$-1", "0.50$", "1e20", "$NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAmount(s)
		if err != nil {
			return
		}
		if (a.USD > 0) == (a.Tokens > 0) || a.USD < 0 || a.Tokens < 0 {
			t.Fatalf("ParseAmount(%q) = %+v", s, a)
		}
		if a.Tokens > 0 {
			if b, err := ParseAmount(a.String()); err != nil || b != a {
				t.Fatalf("%q: %+v reads back as %+v, %v", s, a, b, err)
			}
		}
	})
}
