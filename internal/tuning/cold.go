package tuning

import "strings"

// The cold-cache variables (design §14).
const (
	EnvCold       = "MUTHUR_CONTEXT_BUDGET_COLD"
	EnvColdSaving = "MUTHUR_CONTEXT_BUDGET_COLD_SAVING_USD"
)

// DefaultColdSaving is the saving a fresh session must reach before a
// cold prompt is stopped.
const DefaultColdSaving = 0.30

// ColdMode is what happens to a prompt sent to a cold cache.
type ColdMode int

// The modes of MUTHUR_CONTEXT_BUDGET_COLD.
const (
	// ColdBlock stops the prompt once per cold spell (the default).
	ColdBlock ColdMode = iota
	// ColdWarn lets it through with the figures in the model's context.
	ColdWarn
	// ColdOff does nothing.
	ColdOff
)

// Cold are the validated cold-cache settings.
type Cold struct {
	Mode ColdMode
	// SavingUSD is the threshold both the fresh session's saving and the
	// re-write itself must reach.
	SavingUSD float64
}

// ColdFromEnv reads and validates the cold-cache settings.
func ColdFromEnv(getenv func(string) string) (Cold, error) {
	c := Cold{}
	switch v := strings.ToLower(strings.TrimSpace(getenv(EnvCold))); v {
	case "", "on", "block":
		c.Mode = ColdBlock
	case "warn":
		c.Mode = ColdWarn
	case "off":
		c.Mode = ColdOff
	default:
		return c, &Error{EnvCold, getenv(EnvCold), `must be "on", "warn" or "off"`}
	}
	var err error
	c.SavingUSD, err = dollars(getenv, EnvColdSaving, DefaultColdSaving)
	return c, err
}
