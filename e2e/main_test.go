package e2e

import (
	"flag"
	"fmt"
	"go/build"
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
	hookBin   string // context-budget built from this module, installed by each run
	// hookWrap is CONTEXT_BUDGET_E2E_HOOK_WRAP made absolute: a script run
	// in the hook's place with the binary's path as $1, to run the suite
	// against a deliberately broken hook (testdata/late-hook.sh) and see it
	// fail.
	hookWrap string
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
	flag.Parse()
	if !testing.Short() {
		claudeBin, missing = findClaude()
	}
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
	if w := os.Getenv("CONTEXT_BUDGET_E2E_HOOK_WRAP"); w != "" {
		// Relative to the module root, where make and CI run.
		if !filepath.IsAbs(w) {
			w = filepath.Join(root, w)
		}
		if _, err := os.Stat(w); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: CONTEXT_BUDGET_E2E_HOOK_WRAP:", err)
			return 1
		}
		hookWrap = w
	}
	if err := statSources(root); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	// Every command, as make install puts them side by side: the hook
	// runs context-budget-operator from beside itself.
	hookBin = filepath.Join(tmp, "context-budget")
	// The go command of the toolchain running the test: PATH may lack one.
	gobin := filepath.Join(build.Default.GOROOT, "bin", "go")
	compile := exec.Command(gobin, "build", "-o", tmp+string(filepath.Separator), "./cmd/...")
	compile.Dir = root
	if out, err := compile.CombinedOutput(); err != nil {
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
	if testing.Short() {
		t.Skip("end-to-end: skipped in -short mode")
	}
	if claudeBin != "" {
		return
	}
	msg := fmt.Sprintf("Claude Code CLI %s not available (%s); run `make e2e` to install it, or set CLAUDE_BIN", ClaudeVersion, missing)
	if os.Getenv("CI") == "true" && os.Getenv("CONTEXT_BUDGET_E2E") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// findClaude returns the CLI from CLAUDE_BIN, else from the folder `make
// e2e` installs it into (the user's cache folder, context-budget/
// claude-code), checking that it is the pinned version.
func findClaude() (bin, why string) {
	if bin := os.Getenv("CLAUDE_BIN"); bin != "" {
		return checkClaude(bin)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", "no user cache folder: " + err.Error()
	}
	cache := filepath.Join(dir, "context-budget", "claude-code", "node_modules")
	// The wrapper package's postinstall copies the native binary over
	// bin/claude.exe; where npm did not run it, the platform package still
	// holds the binary.
	candidates := []string{filepath.Join(cache, ".bin", "claude")}
	native, _ := filepath.Glob(filepath.Join(cache, "@anthropic-ai", "claude-code-*", "claude"))
	candidates = append(candidates, native...)
	for _, c := range candidates {
		if bin, why = checkClaude(c); bin != "" {
			return bin, ""
		}
	}
	return "", why
}

// checkClaude returns bin if it runs and reports the pinned version.
func checkClaude(bin string) (string, string) {
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
