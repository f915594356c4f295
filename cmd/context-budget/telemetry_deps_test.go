package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

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
	deps := func(pkg string) (found []string) {
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
	for _, prog := range []string{".", mod + "cmd/context-budget-cli", mod + "cmd/context-budget-operator"} {
		if got := deps(prog); len(got) > 0 {
			t.Errorf("%s links %d telemetry packages, first %s", prog, len(got), got[0])
		}
	}
	// The exporter links them: else the check above would pass for
	// nothing.
	got := deps(mod + "cmd/context-budget-telemetry")
	for _, want := range []string{"go.opentelemetry.io/otel/sdk/log", "go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp", mod + "internal/telemetry/export"} {
		if !slices.Contains(got, want) {
			t.Errorf("context-budget-telemetry does not link %s", want)
		}
	}
}
