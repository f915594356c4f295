package tuning

import (
	"strconv"
	"strings"
)

// The spend fuse's variables (design §13).
const (
	EnvSpend    = "MUTHUR_CONTEXT_BUDGET_SPEND"
	EnvSpendDay = "MUTHUR_CONTEXT_BUDGET_SPEND_DAY"
	EnvLoop     = "MUTHUR_CONTEXT_BUDGET_LOOP"
	EnvBurn     = "MUTHUR_CONTEXT_BUDGET_BURN_USD"
)

// DefaultLoop is how many identical tool calls in a row halt the run
// when MUTHUR_CONTEXT_BUDGET_LOOP is unset and a cap is armed. Unset and
// unarmed, the loop halt is off: on the corpus's real sessions a run of
// five calls that look alike is ordinary work (design §13, help budget).
const DefaultLoop = 5

// Fuse are the spend fuse's validated variables.
type Fuse struct {
	// Spend is the session cap from launch; zero when unset.
	Spend Amount
	// Day is the project's cap per UTC day; zero when unset.
	Day Amount
	// Loop is the run of identical calls that halts; 0 is off.
	Loop int
	// LoopSet says MUTHUR_CONTEXT_BUDGET_LOOP set Loop: it then holds
	// armed or not; unset, Loop holds only while a cap is armed.
	LoopSet bool
	// BurnUSD is the spend per 5 minutes that warns; 0 is off.
	BurnUSD float64
}

// Metered reports whether anything in f needs the spend tally.
func (f Fuse) Metered() bool {
	return !f.Spend.IsZero() || !f.Day.IsZero() || f.BurnUSD > 0
}

// FuseFromEnv reads and validates the fuse's variables.
func FuseFromEnv(getenv func(string) string) (Fuse, error) {
	f := Fuse{Loop: DefaultLoop}
	var err error
	if f.Spend, err = amount(getenv, EnvSpend); err != nil {
		return f, err
	}
	if f.Day, err = amount(getenv, EnvSpendDay); err != nil {
		return f, err
	}
	if v := strings.TrimSpace(getenv(EnvLoop)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n == 1 {
			return f, &Error{EnvLoop, v, "must be a whole number of calls of 2 or more, or 0 for off"}
		}
		f.Loop, f.LoopSet = n, true
	}
	if v := strings.TrimSpace(getenv(EnvBurn)); v != "" {
		usd, err := strconv.ParseFloat(strings.TrimPrefix(v, "$"), 64)
		if err != nil || !(usd > 0) || usd > 1e9 {
			return f, &Error{EnvBurn, v, "must be a dollar amount per 5 minutes such as 2.50"}
		}
		f.BurnUSD = usd
	}
	return f, nil
}

func amount(getenv func(string) string, name string) (Amount, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return Amount{}, nil
	}
	a, err := ParseAmount(v)
	if err != nil {
		return a, &Error{name, v, "must be an amount such as $5, 5usd or 2m (tokens)"}
	}
	return a, nil
}
