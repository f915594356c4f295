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
	err := eachOurs(o, r, func(h *Object, command string) bool {
		if found {
			changes = append(changes, fmt.Sprintf("%s: removed a second registration (%s)", r.Event, command))
			return true
		}
		found = true
		if _, exec := h.Get("args"); exec {
			// Exec form: the program alone is the command.
			if command != exe {
				h.Set("command", exe)
				changes = append(changes, fmt.Sprintf("%s: updated %s to %s", r.Event, command, exe))
			}
			return false
		}
		if command != want {
			h.Set("command", want)
			changes = append(changes, fmt.Sprintf("%s: updated %s to %s", r.Event, command, want))
		}
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
	handler := NewObject()
	handler.Set("type", "command")
	handler.Set("command", want)
	group.Set("hooks", []any{handler})
	hooks.Set(r.Event, append(groups, group))
	return []string{fmt.Sprintf("%s: added %s", r.Event, want)}, nil
}

func installStatusLine(o *Object, exe string) ([]string, error) {
	want := Command(exe, StatusLine)
	if sl, ok := o.Get(StatusLineKey); ok {
		h, isObj := sl.(*Object)
		if !isObj {
			return nil, ErrForeignStatusLine
		}
		command, args := commandOf(h)
		if _, ours := Ours(command, args, StatusLine); !ours {
			return nil, ErrForeignStatusLine
		}
		if _, exec := h.Get("args"); exec {
			want = exe
		}
		if command == want {
			return nil, nil
		}
		h.Set("command", want)
		return []string{fmt.Sprintf("statusLine: updated %s to %s", command, want)}, nil
	}
	h := NewObject()
	h.Set("type", "command")
	h.Set("command", want)
	o.Set(StatusLineKey, h)
	return []string{"statusLine: added " + want}, nil
}

// eachOurs calls fn for every handler of ours in role r, in file order;
// when fn returns true the handler is removed, and with it a group, event
// list or hooks object that the removal left empty. Containers that were
// empty before are left as they were, so that uninstall gives back what
// install was given.
func eachOurs(o *Object, r Role, fn func(h *Object, command string) (remove bool)) error {
	if _, err := handlers(o, r.Event); err != nil {
		return err
	}
	hv, ok := o.Get("hooks")
	if !ok {
		return nil
	}
	hooks := hv.(*Object)
	ev, ok := hooks.Get(r.Event)
	if !ok {
		return nil
	}
	groups := ev.([]any)
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
			handler, ok := h.(*Object)
			if ok {
				command, args := commandOf(handler)
				if _, ours := Ours(command, args, r); ours && fn(handler, command) {
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
			if sl, ok := o.Get(StatusLineKey); ok {
				if h, ok := sl.(*Object); ok {
					command, args := commandOf(h)
					if _, ours := Ours(command, args, r); ours {
						o.Delete(StatusLineKey)
						changes = append(changes, "statusLine: removed "+command)
					}
				}
			}
			continue
		}
		err := eachOurs(o, r, func(_ *Object, command string) bool {
			changes = append(changes, fmt.Sprintf("%s: removed %s", r.Event, command))
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	return changes, nil
}
