//go:build unix

package operator

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunChildIsKilledOnTime: a child that would run for an hour is
// killed at the deadline, and RunChild returns with no login; were it
// left to run, the test would run into its timeout.
func TestRunChildIsKilledOnTime(t *testing.T) {
	pid := filepath.Join(t.TempDir(), "pid")
	p := script(t, "echo $$ > "+pid+"; exec sleep 3600")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if got := RunChild(ctx, p); got != "" {
		t.Errorf("RunChild = %q, want none", got)
	}
	data, err := os.ReadFile(pid)
	if err != nil {
		t.Skipf("the child never started before its deadline: %v", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(n, 0); err == nil {
		syscall.Kill(n, syscall.SIGKILL)
		t.Errorf("the child %d still runs after RunChild returned", n)
	}
}
