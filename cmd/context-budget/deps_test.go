package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHookLinksNoNetHTTP guards the start-up budget: net/http roughly
// doubles the start-up of every hook call, so the program must not link
// it. The operator look-up that needs it runs in context-budget-operator.
// Likewise the plotting library parses fonts at package initialisation
// (≈ 8 ms measured, against ≈ 1.2 ms for the whole binary without it), so
// only context-budget-report links it. BurntSushi/toml is out too: its
// init loaded /etc/localtime on every call (package prices reads the
// price file itself). So is any crypto package: crypto/sha256's FIPS
// module registers itself at start-up, measured at 3.6% of every call
// (package cold fingerprints prompts with FNV).
func TestHookLinksNoNetHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	// go test puts its own toolchain's bin first in PATH (Go 1.19 on), so
	// "go" is the go command running the test; runtime.GOROOT is
	// deprecated.
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps gave %d packages: %q", len(deps), out)
	}
	for _, p := range deps {
		if p == "net/http" || p == "net" || strings.HasPrefix(p, "github.com/cli/go-gh") || strings.HasPrefix(p, "github.com/BurntSushi/") ||
			strings.HasPrefix(p, "gonum.org/") || strings.HasPrefix(p, "crypto") || p == "github.com/muthur/context-budget/internal/report" {
			t.Errorf("context-budget links %s", p)
		}
	}
}
