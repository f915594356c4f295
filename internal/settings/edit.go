package settings

import (
	"fmt"
	"slices"
)

// Install registers roles in o with the binary at exe, in place, and
// returns one line per change (none when o already says it all). A
// registration of ours that names another path is updated where it
// stands; further copies of it are removed, so nothing runs twice.
// Everything else in o keeps its place and value. A status line of ours
// is kept up to date even when roles leave it out.
func Install(o *Object, exe string, roles []Role) ([]string, error) {
	if err := CheckHooks(o); err != nil {
		return nil, err
	}
	entries, err := Registered(o)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(roles, StatusLine) {
		for _, e := range entries {
			if e.Role == StatusLine {
				roles = append(slices.Clip(roles), StatusLine)
				break
			}
		}
	}
	var changes []string
	for _, r := range roles {
		var c []string
		var err error
		if r == StatusLine {
			c, err = installStatusLine(o, exe)
		} else {
			c, err = installHook(o, exe, r)
		}
		if err != nil {
			return nil, err
		}
		changes = append(changes, c...)
	}
	return changes, nil
}

func installHook(o *Object, exe string, r Role) ([]string, error) {
	want := Command(exe, r)
	var changes []string
	found := false
	err := eachOurs(o, r, func(h *Object, command, _ string) bool {
		if found {
			changes = append(changes, fmt.Sprintf("%s: removed a second registration (%s)", r.Event, command))
			return true
		}
		found = true
		changes = append(changes, update(h, r.Event, command, exe, want)...)
		return false
	})
	if err != nil || found {
		return changes, err
	}
	hv, ok := o.Get("hooks")
	if !ok {
		hv = NewObject()
		o.Set("hooks", hv)
	}
	hooks := hv.(*Object)
	ev, _ := hooks.Get(r.Event)
	groups, _ := ev.([]any)
	group := NewObject()
	if r.Matcher != "" {
		group.Set("matcher", r.Matcher)
	}
	group.Set("hooks", []any{newHandler(want)})
	hooks.Set(r.Event, append(groups, group))
	return []string{fmt.Sprintf("%s: added %s", r.Event, want)}, nil
}

func installStatusLine(o *Object, exe string) ([]string, error) {
	want := Command(exe, StatusLine)
	if _, ok := o.Get(StatusLineKey); !ok {
		o.Set(StatusLineKey, newHandler(want))
		return []string{"statusLine: added " + want}, nil
	}
	h, command, _, ours := ourStatusLine(o)
	if !ours {
		return nil, ErrForeignStatusLine
	}
	return update(h, StatusLineKey, command, exe, want), nil
}

func newHandler(command string) *Object {
	h := NewObject()
	h.Set("type", "command")
	h.Set("command", command)
	return h
}

// update points a handler of ours, whose command is command, at exe: the
// command line want, or in exec form (with args) the program alone. It
// returns the change, if any.
func update(h *Object, event, command, exe, want string) []string {
	if _, exec := h.Get("args"); exec {
		want = exe
	}
	if command == want {
		return nil
	}
	h.Set("command", want)
	return []string{fmt.Sprintf("%s: updated %s to %s", event, command, want)}
}

// eachOurs calls fn for every handler of ours in role r, in file order,
// with its command and the program path it names; when fn returns true
// the handler is removed, and with it a group, event list or hooks object
// that the removal left empty. Containers that were empty before are left
// as they were, so that uninstall gives back what install was given. A
// hooks key that is not an object, or an event that is not an array, is a
// ShapeError; any other misshapen part is passed over.
func eachOurs(o *Object, r Role, fn func(h *Object, command, exe string) (remove bool)) error {
	hooks, err := hooksOf(o)
	if hooks == nil {
		return err
	}
	ev, ok := hooks.Get(r.Event)
	if !ok {
		return nil
	}
	groups, ok := ev.([]any)
	if !ok {
		return &ShapeError{"hooks." + r.Event, "an array"}
	}
	keptGroups := groups[:0:0]
	removedAny := false
	for _, g := range groups {
		group, ok := g.(*Object)
		if !ok {
			keptGroups = append(keptGroups, g)
			continue
		}
		hs, _ := group.Get("hooks")
		list, isList := hs.([]any)
		if !isList {
			keptGroups = append(keptGroups, g)
			continue
		}
		kept := list[:0:0]
		removed := false
		for _, h := range list {
			if handler, ok := h.(*Object); ok {
				if command, exe, ours := handlerOf(handler, r); ours && fn(handler, command, exe) {
					removed = true
					continue
				}
			}
			kept = append(kept, h)
		}
		if removed {
			removedAny = true
			if len(kept) == 0 {
				continue
			}
			group.Set("hooks", kept)
		}
		keptGroups = append(keptGroups, g)
	}
	if !removedAny {
		return nil
	}
	if len(keptGroups) > 0 {
		hooks.Set(r.Event, keptGroups)
		return nil
	}
	hooks.Delete(r.Event)
	if hooks.Len() == 0 {
		o.Delete("hooks")
	}
	return nil
}

// Uninstall removes every registration of ours from o, in place, and
// returns one line per removal.
func Uninstall(o *Object) ([]string, error) {
	if _, err := Registered(o); err != nil {
		return nil, err
	}
	var changes []string
	for _, r := range Roles {
		if r == StatusLine {
			if _, command, _, ours := ourStatusLine(o); ours {
				o.Delete(StatusLineKey)
				changes = append(changes, "statusLine: removed "+command)
			}
			continue
		}
		// Registered checked every role's shape: no error here.
		eachOurs(o, r, func(_ *Object, command, _ string) bool {
			changes = append(changes, fmt.Sprintf("%s: removed %s", r.Event, command))
			return true
		})
	}
	return changes, nil
}
