package main

import (
	"os/exec"
	"slices"
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
	const mod = "github.com/muthur/context-budget/"
	banned := []string{mod + "internal/cli", mod + "internal/replay", mod + "internal/report", mod + "internal/settings",
		mod + "internal/prices/override", "github.com/BurntSushi", "github.com/cli/go-gh", "gonum.org", "net", "crypto"}
	imports := func(pkg string) (found []string) {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, p := range strings.Fields(string(out)) {
			for _, b := range banned {
				if p == b || strings.HasPrefix(p, b+"/") {
					found = append(found, p)
				}
			}
		}
		return found
	}
	for _, p := range imports(".") {
		t.Errorf("context-budget imports %s", p)
	}
	// The commands' program links them: the check above would pass for
	// nothing if the list could not find them.
	if got := imports(mod + "cmd/context-budget-cli"); !slices.Contains(got, mod+"internal/cli") ||
		!slices.Contains(got, "github.com/BurntSushi/toml") {
		t.Errorf("context-budget-cli's imports among the banned: %q; want internal/cli and the TOML reader", got)
	}
}
