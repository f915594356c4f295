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
	imports := func(pkg string) []string { return depsAmong(t, pkg, banned) }
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

// depsAmong lists the packages pkg links (go list -deps) that are among
// banned, or under one of them.
func depsAmong(t *testing.T, pkg string, banned []string) (found []string) {
	t.Helper()
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

// TestNoTelemetryOnHookPath keeps OpenTelemetry (its SDK, gRPC and
// protobuf) out of every program the hooks start: context-budget on
// every call, context-budget-cli for a recompute, a cold prompt and the
// Stop hook's row, context-budget-operator for the operator's look-up.
// It lives in context-budget-telemetry alone, which the Stop hook and
// run start to send (design §17).
func TestNoTelemetryOnHookPath(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	const mod = "github.com/muthur/context-budget/"
	banned := []string{"go.opentelemetry.io", "google.golang.org/grpc", "google.golang.org/protobuf", mod + "internal/telemetry/export"}
	for _, prog := range []string{".", mod + "cmd/context-budget-cli", mod + "cmd/context-budget-operator"} {
		if got := depsAmong(t, prog, banned); len(got) > 0 {
			t.Errorf("%s links %d telemetry packages, first %s", prog, len(got), got[0])
		}
	}
	// The exporter links them: else the check above would pass for
	// nothing.
	got := depsAmong(t, mod+"cmd/context-budget-telemetry", banned)
	for _, want := range []string{"go.opentelemetry.io/otel/sdk/log", "go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp", mod + "internal/telemetry/export"} {
		if !slices.Contains(got, want) {
			t.Errorf("context-budget-telemetry does not link %s", want)
		}
	}
}
