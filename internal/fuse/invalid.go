package fuse

import (
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/tuning"
)

// invalid answers a call whose fuse variables do not read (bad is why).
// Unarmed, it is silence and the error, as for any bad setting. While a
// cap is armed — one the CLI armed, or a session or day cap from the
// environment that reads — the fuse cannot decide, and fails closed: a
// variable made invalid (by a project's settings, say) must not lift a
// cap that holds.
func invalid(c Call, bad error) (Answer, error) {
	armed := false
	for _, name := range []string{tuning.EnvSpend, tuning.EnvSpendDay} {
		if a, err := tuning.ParseAmount(strings.TrimSpace(c.Getenv(name))); err == nil && !a.IsZero() {
			armed = true
		}
	}
	dir := Dir(c.Getenv, c.Root)
	var arm Arm
	if dir != "" {
		arm, _, _ = LoadArm(dir, c.Session)
		if w, ok, _ := peekWitness(witnessDir(c.Getenv, dir), c.Session); ok && !arm.Set {
			arm = w.Arm // the state removed: its witness holds
		}
		armed = armed || arm.Set && !arm.Cap.IsZero()
	}
	if !armed {
		return Answer{}, bad
	}
	f := &fused{Call: c, dir: dir, arm: arm, caps: capsOf(tuning.Fuse{}, arm), began: time.Now()}
	return f.undecided(bad.Error()), nil
}
