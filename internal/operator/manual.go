// Package operator is what the hook decides about the operator: how a pause
// ends (design §7), by running /relay
// unasked (auto, the default) or by offering it to the operator (manual
// mode), and whether the notice asks the agent to offer, once, to ask
// before relaying in future.
//
// Manual mode is on when MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY is truthy, or
// when the operator's committed file
// <root>/.claude/context-budget/manual-relay/<login> is. The operator is
// the GitHub user of the session's token; finding it needs the network,
// so this package, which the hook links, only runs the
// context-budget-operator command in a child process, and only when the
// environment switch has not already settled the question.
package operator

import (
	"path/filepath"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/tuning"
)

// Decision is how the notice ends.
type Decision struct {
	// Manual: tell the operator the session paused and offer /relay,
	// instead of running it.
	Manual bool
	// Offer: an operator was found, relaying is automatic, and their file
	// says neither yes nor no; the agent offers once to ask before
	// relaying in future.
	Offer bool
	// Operator is the login the decision was made for, "" for none.
	Operator string
}

// Dir is the folder of the operators' files under a project root.
func Dir(root string) string {
	return filepath.Join(root, ".claude", "context-budget", "manual-relay")
}

// File is the operator's file under a project root. The login must be a
// plain name (PlainLogin).
func File(root, login string) string {
	return filepath.Join(Dir(root), login)
}

// Choice reads the operator's file: Yes, No, or Unset when it is missing,
// unreadable, too long, or holds anything but a yes or a no.
func Choice(root, login string) tuning.Switch {
	if !PlainLogin(login) {
		return tuning.Unset
	}
	data, err := reading.ReadFile(File(root, login), reading.MaxChoice)
	if err != nil {
		return tuning.Unset
	}
	return tuning.ParseSwitch(string(data))
}

// Decide makes the decision. env is the environment switch; operator
// returns the operator's login or "" and is called only when the switch
// is not truthy, so a truthy switch costs no lookup at all.
func Decide(env tuning.Switch, root string, operator func() string) Decision {
	if env == tuning.Yes {
		return Decision{Manual: true}
	}
	login := operator()
	if !PlainLogin(login) {
		return Decision{}
	}
	switch Choice(root, login) {
	case tuning.Yes:
		return Decision{Manual: true, Operator: login}
	case tuning.No:
		return Decision{Operator: login}
	}
	return Decision{Offer: true, Operator: login}
}

// PlainLogin reports whether login is safe as a file name and looks like
// a lowercased GitHub login: 1 to 100 of a-z, 0-9, '-' and '_' (managed
// enterprise users carry an _suffix), starting with a letter or digit.
func PlainLogin(login string) bool {
	if login == "" || len(login) > 100 {
		return false
	}
	for i := 0; i < len(login); i++ {
		c := login[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case (c == '-' || c == '_') && i > 0:
		default:
			return false
		}
	}
	return true
}
