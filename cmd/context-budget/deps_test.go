package main

import (
	"os/exec"
	"path/filepath"
	"slices"
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

// TestHookProgramLinksNoCommands guards the split between the two
// programs: context-budget, which Claude Code starts for every tool call
// and every status line, links only what the hook and the status line
// reach, and leaves the commands typed by hand to context-budget-cli. A
// reference from the hot path to the command table, or to a command's
// package, would bring them all back in, and every call would start
// slower (2–4% of the floor measured). Packages are what go list sees; what is linked
// is what the linker kept, so this reads the built program's symbols.
func TestHookProgramLinksNoCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	bin := filepath.Join(t.TempDir(), "context-budget")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	const mod = "github.com/muthur/context-budget/"
	banned := []string{mod + "internal/replay.", mod + "internal/settings.", mod + "internal/report.",
		mod + "tools/gen.", "text/tabwriter.", mod + "internal/cli.runReplay", mod + "internal/cli.runInstall",
		mod + "internal/cli.runDoctor", mod + "internal/cli.runLines", mod + "internal/cli.runLedger", mod + "internal/cli.runBudget"}
	hot := 0
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		sym := f[len(f)-1]
		if strings.HasPrefix(sym, mod+"internal/cli.runHook") || strings.HasPrefix(sym, mod+"internal/cli.runStatusline") {
			hot++
		}
		for _, b := range banned {
			if strings.HasPrefix(sym, b) {
				t.Errorf("context-budget links %s", sym)
			}
		}
	}
	if hot < 2 {
		t.Fatalf("found %d of the hook's and the status line's functions in the symbols; is the table read right?", hot)
	}
}

// TestHotProgramSettings: the program Claude Code starts on every call is
// built with the GOMAXPROCS updater off (main.go says why).
func TestHotProgramSettings(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.DefaultGODEBUG}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !slices.Contains(strings.Split(strings.TrimSpace(string(out)), ","), "updatemaxprocs=0") {
		t.Errorf("DefaultGODEBUG = %q, want updatemaxprocs=0 in it", strings.TrimSpace(string(out)))
	}
}

// TestHookReadsNoTOML: the hook program, and the price table it links,
// reach no TOML package. BurntSushi/toml's package initialisation reads
// /etc/localtime, which would run on every hook call; price files are
// read by package override, in context-budget-cli only, and the hook
// takes the merged table from the cache that program writes.
func TestHookReadsNoTOML(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	const mod = "github.com/muthur/context-budget/"
	for _, pkg := range []string{".", mod + "internal/prices", mod + "cmd/context-budget-cli"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		toml := slices.ContainsFunc(deps, func(p string) bool {
			return p == "github.com/BurntSushi/toml" || p == mod+"internal/prices/override"
		})
		// The commands' program reads price files: the test would pass
		// for nothing if the list never held the package.
		if want := pkg == mod+"cmd/context-budget-cli"; toml != want {
			t.Errorf("go list -deps %s: TOML reader linked %v, want %v", pkg, toml, want)
		}
	}
}
