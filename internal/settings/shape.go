package settings

import (
	"encoding/json"
	"fmt"
)

// CheckHooks reports whether the settings' hooks are shaped as Claude Code
// reads them (docs: hooks.<event> is an array of matcher groups, each an
// object with an optional string matcher and a hooks array of handler
// objects, each with a string type; a command handler has a string
// command, a timeout is a number). Claude Code refuses a settings file
// whose hooks it cannot read, so registering ours into one would do
// nothing: install refuses it instead, naming the first bad place.
func CheckHooks(o *Object) error {
	hooks, err := hooksOf(o)
	if hooks == nil {
		return err
	}
	for _, event := range hooks.Keys() {
		ev, _ := hooks.Get(event)
		path := "hooks." + event
		groups, ok := ev.([]any)
		if !ok {
			return &ShapeError{path, "an array"}
		}
		for i, g := range groups {
			gp := fmt.Sprintf("%s[%d]", path, i)
			group, ok := g.(*Object)
			if !ok {
				return &ShapeError{gp, `a matcher group (an object with "hooks")`}
			}
			if m, ok := group.Get("matcher"); ok {
				if _, ok := m.(string); !ok {
					return &ShapeError{gp + ".matcher", "a string"}
				}
			}
			hs, ok := group.Get("hooks")
			list, isList := hs.([]any)
			if !ok || !isList {
				return &ShapeError{gp + ".hooks", "an array of handlers"}
			}
			for j, h := range list {
				hp := fmt.Sprintf("%s.hooks[%d]", gp, j)
				if err := checkHandler(h, hp); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// hooksOf returns o's hooks object, nil when there is none; a hooks key
// that is not an object is a ShapeError.
func hooksOf(o *Object) (*Object, error) {
	hv, ok := o.Get("hooks")
	if !ok {
		return nil, nil
	}
	hooks, ok := hv.(*Object)
	if !ok {
		return nil, &ShapeError{"hooks", "an object"}
	}
	return hooks, nil
}

func checkHandler(h any, path string) error {
	handler, ok := h.(*Object)
	if !ok {
		return &ShapeError{path, `a handler (an object with "type")`}
	}
	tv, _ := handler.Get("type")
	typ, ok := tv.(string)
	if !ok || typ == "" {
		return &ShapeError{path + ".type", "a string"}
	}
	if typ == "command" {
		cv, _ := handler.Get("command")
		if c, ok := cv.(string); !ok || c == "" {
			return &ShapeError{path + ".command", "a command line (a string)"}
		}
	}
	if tv, ok := handler.Get("timeout"); ok {
		if _, ok := tv.(json.Number); !ok {
			return &ShapeError{path + ".timeout", "a number"}
		}
	}
	return nil
}
