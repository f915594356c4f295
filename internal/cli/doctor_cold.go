package cli

import (
	"os"

	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/tuning"
)

// checkColdHooks reports a cold-cache check that cannot run: its two hooks
// are missing from every settings file (an install from before them), no
// plugin registers them, and MUTHUR_CONTEXT_BUDGET_COLD does not turn the
// check off.
func (d *doctor) checkColdHooks(registered map[settings.Role]bool, scopes []scopeSettings) {
	if pluginEnabled(scopes) != "" {
		return
	}
	if cs, err := tuning.ColdFromEnv(os.Getenv); err == nil && cs.Mode == tuning.ColdOff {
		return
	}
	for _, r := range []settings.Role{settings.UserPromptSubmit, settings.SessionStart} {
		if !registered[r] {
			d.problem("no settings file registers the %s hook (the cold-cache check): run 'context-budget install'", r.Event)
		}
	}
}
