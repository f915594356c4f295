package chain

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// envKeep makes the test binary a session's keeper (Keep) of the program
// its arguments name, as context-budget-cli keep is.
const envKeep = "CHAIN_TEST_KEEP"

func TestMain(m *testing.M) {
	if os.Getenv(envKeep) == "1" {
		os.Exit(Keep(os.Args[1:], os.Stderr))
	}
	os.Exit(m.Run())
}

// alive lists the processes whose environment holds mark.
func alive(t *testing.T, mark string) []string {
	t.Helper()
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	var out []string
	for _, name := range envs {
		data, err := os.ReadFile(name)
		if err == nil && bytes.Contains(data, []byte(mark)) {
			out = append(out, filepath.Base(filepath.Dir(name)))
		}
	}
	return out
}

// TestKeepEndsTheTree: what a session detached (setsid, nohup in a
// subshell, a plain background job) ends when it does; its output and
// exit status pass through.
func TestKeepEndsTheTree(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the subreaper is Linux's")
	}
	mark := "KEEP_TEST_MARK=" + NewID()
	// Their output goes elsewhere, so that nothing but the keeper's work
	// ends them before the check.
	script := `exec 3>&1 >/dev/null 2>&1
setsid sleep 300 & (nohup sleep 301 &) ; (setsid sh -c 'sleep 302 & sleep 303' &) ; sleep 304 &
echo started >&3; exit 3`
	cmd := exec.Command(os.Args[0], "sh", "-c", script)
	cmd.Env = append(os.Environ(), envKeep+"=1", mark)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 3 || strings.TrimSpace(out.String()) != "started" {
		t.Fatalf("keep: %v, out %q", err, out.String())
	}
	if left := alive(t, mark); len(left) > 0 {
		t.Errorf("processes left after the session: %v", left)
	}
}
