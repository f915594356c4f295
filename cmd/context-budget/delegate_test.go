package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildBoth builds context-budget and context-budget-cli into one folder,
// as go install and make install place them.
func buildBoth(t *testing.T) (dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the programs")
	}
	dir = t.TempDir()
	for _, pkg := range []string{".", "../context-budget-cli"} {
		if out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	return dir
}

// runIn runs a program of dir with args, stdin and a clean environment
// whose PATH holds nothing of ours.
func runIn(t *testing.T, prog string, stdin string, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

// TestDelegate: context-budget answers every command a user types through
// context-budget-cli, with its output and exit status, and registers
// itself, not context-budget-cli, as the hook.
func TestDelegate(t *testing.T) {
	dir := buildBoth(t)
	home := t.TempDir()
	cb := filepath.Join(dir, "context-budget")

	if out, errs, code := runIn(t, cb, "", home, "version"); code != 0 || !strings.HasPrefix(out, "context-budget ") || errs != "" {
		t.Errorf("version: %q, %q, exit %d", out, errs, code)
	}
	if _, errs, code := runIn(t, cb, "", home, "replay", "--bogus"); code != 2 || !strings.Contains(errs, "unknown flag --bogus") {
		t.Errorf("replay --bogus: %q, exit %d; want the usage error, exit 2", errs, code)
	}
	if out, _, code := runIn(t, cb, "", home, "help"); code != 0 || !strings.Contains(out, "replay") {
		t.Errorf("help: %q, exit %d", out, code)
	}
	// install names context-budget, beside context-budget-cli, as the hook.
	if out, errs, code := runIn(t, cb, "", home, "install", "--scope", "user"); code != 0 {
		t.Fatalf("install: %q, %q, exit %d", out, errs, code)
	}
	settings, err := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(settings, []byte(cb+" hook")) || bytes.Contains(settings, []byte("context-budget-cli")) {
		t.Errorf("install registered:\n%s\nwant %s hook, and no context-budget-cli", settings, cb)
	}
}

// TestDelegateWithoutCLI: without context-budget-cli the hook and the
// status line still answer (silently, for a payload they cannot use), and
// a typed command says what is missing and how to install it.
func TestDelegateWithoutCLI(t *testing.T) {
	dir := buildBoth(t)
	if err := os.Remove(filepath.Join(dir, "context-budget-cli")); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cb := filepath.Join(dir, "context-budget")
	for _, sub := range []string{"hook", "statusline"} {
		out, errs, code := runIn(t, cb, "{not json", home, sub)
		if code != 0 || errs != "" || (sub == "hook" && out != "") {
			t.Errorf("%s without the cli: %q, %q, exit %d", sub, out, errs, code)
		}
	}
	out, errs, code := runIn(t, cb, "", home, "lines")
	if code != 1 || out != "" || !strings.Contains(errs, "context-budget-cli is not installed") || !strings.Contains(errs, "go install github.com/muthur/context-budget/cmd/...@latest") {
		t.Errorf("lines without the cli: %q, %q, exit %d", out, errs, code)
	}
}
