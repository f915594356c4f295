package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHotProgramDeps keeps the boundary of the program Claude Code starts
// on every tool call: it imports the hook and what the hook needs, never
// the commands typed by hand (internal/cli), replay and its report,
// Claude Code's settings files, the price files' TOML reader (its init
// read /etc/localtime on every start), the network (net/http doubles a
// Go program's start), the GitHub client, the plotting library or any
// crypto package (crypto/sha256 registers a FIPS module at start-up).
// Those live in context-budget-cli, context-budget-operator and
// context-budget-report.
func TestHotProgramDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	// go test puts its own toolchain's bin first in PATH, so "go" is the
	// go command running the test.
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps gave %d packages: %q", len(deps), out)
	}
	const mod = "github.com/muthur/context-budget/"
	banned := []string{mod + "internal/cli", mod + "internal/replay", mod + "internal/report", mod + "internal/settings",
		"github.com/BurntSushi", "github.com/cli/go-gh", "gonum.org", "net", "crypto"}
	for _, p := range deps {
		for _, b := range banned {
			if p == b || strings.HasPrefix(p, b+"/") {
				t.Errorf("context-budget imports %s", p)
			}
		}
	}
}
