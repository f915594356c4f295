package cli

import (
	"bytes"
	"os"
	"strconv"
	"testing"
)

// testOnlyHWM names a file the test binary, run as the program, writes its
// own peak resident memory to when it finishes. The rusage of a child
// cannot be used: Go starts children with CLONE_VM|CLONE_VFORK, and Linux
// folds the parent's high-water mark into the child's at exec.
const testOnlyHWM = "CONTEXT_BUDGET_TEST_ONLY_HWM"

func init() {
	name := os.Getenv(testOnlyHWM)
	if name == "" || os.Getenv(testOnlyRunMain) == "" {
		return
	}
	testDeadlines()
	code := Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range bytes.Split(status, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			os.WriteFile(name, bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB"))), 0o644)
		}
	}
	os.Exit(code)
}

// peakOf reads the peak a run wrote, in bytes; 0 (not measured) where
// /proc gives none.
func peakOf(t *testing.T, name string) int64 {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Logf("no peak memory measured: %v", err)
		return 0
	}
	kb, _ := strconv.ParseInt(string(data), 10, 64)
	return kb << 10
}
