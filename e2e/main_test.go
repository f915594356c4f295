package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Found once by TestMain.
var (
	claudeBin string // the CLI, or "" when it is missing
	missing   string // why the CLI is missing
	hookBin   string // context-budget built from this module
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	claudeBin, missing = findClaude(root)
	if claudeBin == "" {
		// Nothing to build; every test skips or fails on its own.
		return m.Run()
	}
	tmp, err := os.MkdirTemp("", "context-budget-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	if err := statSources(root); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	hookBin = filepath.Join(tmp, "context-budget")
	build := exec.Command("go", "build", "-o", hookBin, "./cmd/context-budget")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building context-budget: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// needClaude skips the test when the CLI is missing, or fails it in CI when
// the suite was asked for: there a missing CLI is a broken install, not a
// developer machine without Node.js.
func needClaude(t *testing.T) {
	t.Helper()
	if claudeBin != "" {
		return
	}
	msg := fmt.Sprintf("Claude Code CLI %s not available (%s); run `make e2e` to install it, or set CLAUDE_BIN", ClaudeVersion, missing)
	if os.Getenv("CI") == "true" && os.Getenv("CONTEXT_BUDGET_E2E") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// findClaude returns the CLI from CLAUDE_BIN, else from the cache folder
// `make e2e` installs into, checking that it is the pinned version.
func findClaude(root string) (bin, why string) {
	bin = os.Getenv("CLAUDE_BIN")
	if bin == "" {
		bin = filepath.Join(root, ".cache", "claude-code", "node_modules", ".bin", "claude")
	}
	if _, err := os.Stat(bin); err != nil {
		return "", "no " + bin
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "", fmt.Sprintf("%s --version: %v", bin, err)
	}
	if v := strings.Fields(string(out)); len(v) == 0 || v[0] != ClaudeVersion {
		return "", fmt.Sprintf("%s is %q, the suite is pinned to %s", bin, strings.TrimSpace(string(out)), ClaudeVersion)
	}
	return bin, ""
}

// statSources stats every file of the module (sources, embedded data). The
// hook binary is built in a child process, which go test's result cache
// does not see; the files this process stats are part of the cache key, so
// a change to the hook's code re-runs the suite instead of replaying a
// stale pass.
func statSources(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".cache", "bin", "tmp", "node_modules":
				if path != root {
					return filepath.SkipDir
				}
			}
			return nil
		}
		_, err = os.Stat(path)
		return err
	})
}

// moduleRoot walks up from the working directory to go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
