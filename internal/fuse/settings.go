// Package fuse decides the spend fuse: the caps a session and a project
// may spend, the warning at 80% of a cap, the halt at 100% (every tool
// call denied, the run ended at its stop), the loop of one tool call
// repeated, the burn rate, and the tool calls by which an agent would
// lift its own fuse.
//
// A session's fuse lives in the state folder (design §5) as
// <session_id>.fuse: the cap armed from the CLI, its baseline, and a loop
// halt recorded by the PostToolUse hook. With no cap in the environment
// and no such file, the PreToolUse and Stop hooks decide from one stat.
package fuse

import (
	"strconv"
	"strings"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/spend"
)

// The variables of the fuse.
const (
	EnvSpend    = "MUTHUR_CONTEXT_BUDGET_SPEND"
	EnvSpendDay = "MUTHUR_CONTEXT_BUDGET_SPEND_DAY"
	EnvLoop     = "MUTHUR_CONTEXT_BUDGET_LOOP"
	EnvBurn     = "MUTHUR_CONTEXT_BUDGET_BURN_USD"
)

// Variables lists them, for help and doctor.
var Variables = []string{EnvSpend, EnvSpendDay, EnvLoop, EnvBurn}

// DefaultLoop is how many identical tool calls in a row halt the run.
const DefaultLoop = 5

// Settings are the fuse's validated variables.
type Settings struct {
	// Spend is the session cap from launch; zero when unset.
	Spend spend.Amount
	// Day is the project's cap per UTC day; zero when unset.
	Day spend.Amount
	// Loop is the run of identical calls that halts; 0 is off.
	Loop int
	// BurnUSD is the spend per 5 minutes that warns; 0 is off.
	BurnUSD float64
}

// Metered reports whether anything in s needs the tally.
func (s Settings) Metered() bool {
	return !s.Spend.IsZero() || !s.Day.IsZero() || s.BurnUSD > 0
}

// FromEnv reads the fuse's variables. An invalid value is a
// *config.Error naming it, as for the other variables.
func FromEnv(getenv func(string) string) (Settings, error) {
	s := Settings{Loop: DefaultLoop}
	var err error
	if s.Spend, err = amount(getenv, EnvSpend); err != nil {
		return s, err
	}
	if s.Day, err = amount(getenv, EnvSpendDay); err != nil {
		return s, err
	}
	if v := strings.TrimSpace(getenv(EnvLoop)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n == 1 {
			return s, &config.Error{Var: EnvLoop, Value: v, Reason: "must be a whole number of calls of 2 or more, or 0 for off"}
		}
		s.Loop = n
	}
	if v := strings.TrimSpace(getenv(EnvBurn)); v != "" {
		f, err := strconv.ParseFloat(strings.TrimPrefix(v, "$"), 64)
		if err != nil || !(f > 0) || f > 1e9 {
			return s, &config.Error{Var: EnvBurn, Value: v, Reason: "must be a dollar amount per 5 minutes such as 2.50"}
		}
		s.BurnUSD = f
	}
	return s, nil
}

func amount(getenv func(string) string, name string) (spend.Amount, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return spend.Amount{}, nil
	}
	a, err := spend.ParseAmount(v)
	if err != nil {
		return a, &config.Error{Var: name, Value: v, Reason: "must be an amount such as $5, 5usd or 2m (tokens)"}
	}
	return a, nil
}
