package tuning

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Amount is a spend cap: dollars or tokens, one of them set.
type Amount struct {
	// USD is a dollar cap; 0 when the cap is in tokens.
	USD float64 `json:"usd,omitempty"`
	// Tokens is a token cap (all four usage fields); 0 when in dollars.
	Tokens int64 `json:"tokens,omitempty"`
}

// IsZero reports whether a is no cap.
func (a Amount) IsZero() bool { return a.USD == 0 && a.Tokens == 0 }

// String writes a as ParseAmount reads it: "$5.00" or "2000000 tokens".
func (a Amount) String() string {
	if a.Tokens > 0 {
		// A cap is shown short only when the short form is the cap: 10001
		// tokens is not "10.0k tokens".
		short := FormatTokens(a.Tokens) + " tokens"
		if b, err := ParseAmount(short); err == nil && b == a {
			return short
		}
		return strconv.FormatInt(a.Tokens, 10) + " tokens"
	}
	return fmt.Sprintf("$%.2f", a.USD)
}

// FormatTokens writes a token count short: 950, 12.3k, 2.00m.
func FormatTokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 2, 64) + "m"
	case n >= 10_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatInt(n, 10)
}

// ErrEmpty reports an empty amount, most often a bare $5 that the shell
// expanded to nothing.
var ErrEmpty = errors.New("the amount is empty")

// ErrNoUnit reports a bare number: five dollars and five tokens are both
// plausible readings of "5", and the wrong one is a cap 100,000 times off.
var ErrNoUnit = errors.New("an amount needs a unit")

// The largest caps: past them a cap is a typing slip, and a dollar figure
// of 1e308 would print as 309 digits.
const (
	maxUSD    = 1e6
	maxTokens = 1e12
)

// ParseAmount reads a cap: "$5", "5usd", "5 USD", "5$" or "0.50$" are
// dollars (at most $1,000,000); "2m", "500k" or "2000000 tokens" are
// tokens (at most 1,000,000m). A number without a unit is ErrNoUnit.
func ParseAmount(s string) (Amount, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	if v == "" {
		return Amount{}, ErrEmpty
	}
	// The error is made only when it is returned: the hook parses an
	// armed cap on every call.
	bad := func() error { return fmt.Errorf("%.40q is not an amount such as '$5', 5usd or 2m (tokens)", s) }
	dollars := false
	switch {
	case strings.HasPrefix(v, "$"):
		v, dollars = v[1:], true
	case strings.HasSuffix(v, "usd"):
		v, dollars = strings.TrimSuffix(v, "usd"), true
	case strings.HasSuffix(v, "$"):
		v, dollars = strings.TrimSuffix(v, "$"), true
	}
	v = strings.TrimSpace(v)
	if dollars {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return Amount{}, bad()
		}
		if f > maxUSD {
			return Amount{}, fmt.Errorf("%.40q is more than the largest cap, $%.0f", s, float64(maxUSD))
		}
		return Amount{USD: f}, nil
	}
	v, unit := strings.CutSuffix(v, "tokens")
	v = strings.TrimSpace(v)
	mult := 1.0
	switch {
	case strings.HasSuffix(v, "k"):
		v, mult, unit = v[:len(v)-1], 1e3, true
	case strings.HasSuffix(v, "m"):
		v, mult, unit = v[:len(v)-1], 1e6, true
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) {
		return Amount{}, bad()
	}
	if !unit {
		return Amount{}, fmt.Errorf("%w: %.40q is neither '$%s' nor %sk tokens", ErrNoUnit, s, v, v)
	}
	if f*mult > maxTokens {
		return Amount{}, fmt.Errorf("%.40q is more than the largest cap, 1,000,000m tokens", s)
	}
	n := int64(math.Round(f * mult))
	if n <= 0 {
		return Amount{}, bad()
	}
	return Amount{Tokens: n}, nil
}
