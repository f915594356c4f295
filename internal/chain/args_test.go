package chain

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/tuning"
)

// TestArgsMerge: the user's --settings (inline or a file) and
// --append-system-prompt (or its file) are merged with the runner's
// pins and instruction, once each; every other argument is kept in its
// order.
func TestArgsMerge(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "s.json", `{"model":"opus","env":{"KEEP":"1","MUTHUR_CONTEXT_BUDGET_SPEND":"$9"}}`)
	write(t, dir, "p.txt", "Be brief.\n")
	for _, args := range [][]string{
		{"--model", "opus", "--settings", "s.json", "--append-system-prompt", "Be brief."},
		{"--model", "opus", "--settings=" + filepath.Join(dir, "s.json"), "--append-system-prompt-file", "p.txt"},
	} {
		c, err := parseArgs(dir, args)
		if err != nil {
			t.Fatal(err)
		}
		if c.env()[tuning.EnvSpend] != "$9" {
			t.Errorf("the user's env: %v", c.env())
		}
		got := c.with(map[string]string{tuning.EnvSpend: "$0.2000"})
		if !slices.Equal(got[:2], []string{"--model", "opus"}) || len(got) != 6 {
			t.Fatalf("args %q", got)
		}
		var m struct {
			Model           string
			Env             map[string]string
			DisableAllHooks *bool
		}
		if got[2] != flagSettings || json.Unmarshal([]byte(got[3]), &m) != nil || m.Model != "opus" ||
			m.Env["KEEP"] != "1" || m.Env[tuning.EnvSpend] != "$0.2000" || m.DisableAllHooks == nil || *m.DisableAllHooks {
			t.Errorf("settings %q", got[2:4])
		}
		if got[4] != flagAppend || got[5] != "Be brief.\n\n"+Instruction {
			t.Errorf("appended %q", got[4:])
		}
	}
	if c, _ := parseArgs(dir, []string{"--verbose"}); !slices.Equal(c.with(nil), []string{"--verbose", flagSettings, `{"disableAllHooks":false}`, flagAppend, Instruction}) {
		t.Errorf("nothing to merge: %q", c.with(nil))
	}
	for _, bad := range [][]string{{"--settings"}, {"--settings", "missing.json"}, {"--settings", "[1]"}, {"--append-system-prompt-file", "none"}} {
		if err := CheckArgs(dir, bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestPins: the session's cap is the budget left (plus what a resumed
// session spent before); a settings file or the user's --settings may
// lower it in its unit, never raise, unset or spoil it; the day cap is
// the runner's, lowered the same way; none is pinned that the runner
// does not set.
func TestPins(t *testing.T) {
	dir := repo(t)
	home := t.TempDir()
	write(t, home, ".claude/settings.json", `{"env":{"MUTHUR_CONTEXT_BUDGET_SPEND_DAY":"$40"}}`)
	write(t, dir, ".claude/settings.json", `{"env":{"MUTHUR_CONTEXT_BUDGET_SPEND":"$50","MUTHUR_CONTEXT_BUDGET_SPEND_DAY":""}}`)
	r := &runner{cfg: Config{Dir: dir}, env: []string{"HOME=" + home, tuning.EnvSpendDay + "=$100"}}
	c, _ := parseArgs(dir, nil)
	pins := r.pins(c, 0.20, 0)
	if pins[tuning.EnvSpend] != "$0.2000" || pins[tuning.EnvSpendDay] != "$40" || len(pins) != 2 {
		t.Errorf("pins %v", pins)
	}
	if got := r.pins(c, 0.20, 1.5)[tuning.EnvSpend]; got != "$1.7000" {
		t.Errorf("a resumed session's cap %q", got)
	}
	write(t, dir, ".claude/settings.local.json", `{"env":{"MUTHUR_CONTEXT_BUDGET_SPEND":"$0.05"}}`)
	if got := r.pins(c, 0.20, 0)[tuning.EnvSpend]; got != "$0.05" {
		t.Errorf("a local file's lower cap: %q", got)
	}
	write(t, dir, ".claude/settings.local.json", `{"env":{"MUTHUR_CONTEXT_BUDGET_SPEND":"10k"}}`)
	user, _ := parseArgs(dir, []string{"--settings", `{"env":{"MUTHUR_CONTEXT_BUDGET_SPEND":"lots","MUTHUR_CONTEXT_BUDGET_SPEND_DAY":"$1"}}`})
	pins = r.pins(user, 0.20, 0)
	if pins[tuning.EnvSpend] != "$0.2000" || pins[tuning.EnvSpendDay] != "$1" {
		t.Errorf("tokens, an invalid value and a lower day cap: %v", pins)
	}
	none := &runner{cfg: Config{Dir: dir}, env: []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude")}}
	if pins := none.pins(c, 0, 0); len(pins) != 1 || !strings.HasSuffix(pins["CLAUDE_CONFIG_DIR"], ".claude") {
		t.Errorf("no budget, no caps: %v", pins)
	}
}
