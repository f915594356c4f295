package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// probe is a copy of the hook's program in a folder of its own, with a
// context-budget-cli beside it that notes each run in a file and then
// runs the real one. One call of each case through it, after the warm-up,
// shows whether the call the row measures reaches context-budget-cli (a
// recompute, a cold prompt): a call that does is not the one the row
// names, and the run fails. The measured runs use the programs as `make
// build` leaves them.
type probe struct {
	hook, marks string
}

// newProbe writes the probe into dir, for the programs b.
func newProbe(dir string, b bins) (*probe, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cli, err := filepath.Abs(b.cli)
	if err != nil {
		return nil, err
	}
	p := &probe{hook: filepath.Join(dir, "context-budget"), marks: filepath.Join(dir, "cli-runs")}
	if strings.ContainsRune(dir+cli, '\'') {
		return nil, fmt.Errorf("the probe cannot quote a path with a single quote: %s", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := copyFile(b.hook, p.hook, 0o755); err != nil {
		return nil, err
	}
	script := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> '%s'\nexec '%s' \"$@\"\n", p.marks, cli)
	if err := os.WriteFile(filepath.Join(dir, "context-budget-cli"), []byte(script), 0o755); err != nil {
		return nil, err
	}
	return p, nil
}

// check runs the case's call once through the probe and fails if it ran
// context-budget-cli, or did not answer as the case expects.
func (p *probe) check(c benchCase) error {
	if err := os.WriteFile(p.marks, nil, 0o644); err != nil {
		return err
	}
	if c.before != nil {
		c.before()
	}
	_, out, errOut, err := exe(p.hook, c.argv(), c.payload(-1), c.env)
	if err != nil {
		return err
	}
	marks, err := os.ReadFile(p.marks)
	if err != nil {
		return err
	}
	if len(marks) > 0 {
		return fmt.Errorf("%s: after the warm-up the call still runs context-budget-cli (%s): a miss, not the call this row measures",
			c.name, strings.TrimSpace(string(marks)))
	}
	return c.checkOutput(out, errOut)
}
