package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoInitOnHotPath guards the start-up of every hook and status line
// call: no package of this module (nor any outside the standard library)
// may do work at initialisation, as GODEBUG=inittrace=1 reports it. A
// package-level map literal, errors.New, regexp.MustCompile or a call in a
// var declaration each show up here; the TOML library's init (it loaded
// /etc/localtime) once cost 0.5 ms of every call.
func TestNoInitOnHotPath(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	bin := filepath.Join(t.TempDir(), "context-budget")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sub := range []string{"hook", "statusline"} {
		cmd := exec.Command(bin, sub)
		cmd.Env = []string{"GODEBUG=inittrace=1"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", sub, err, out)
		}
		inits := 0
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || f[0] != "init" {
				continue
			}
			inits++
			pkg := f[1]
			if pkg == "main" || strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") {
				t.Errorf("%s: package %s runs an init at start-up: %s", sub, pkg, line)
			}
		}
		if inits < 3 {
			t.Fatalf("%s: inittrace reported %d packages; is GODEBUG=inittrace=1 honoured?\n%s", sub, inits, out)
		}
	}
}
