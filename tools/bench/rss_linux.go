package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
)

// peakRSS runs bin once and returns its own peak resident set (VmHWM),
// read from /proc while the process is stopped at its exit.
//
// The rusage of a child (ProcessState.SysUsage().Maxrss) cannot be used
// here: Go starts children with CLONE_VM|CLONE_VFORK, so until exec the
// child runs in the parent's address space, and Linux folds that address
// space's high-water mark into the child's maxrss at exec. A child of this
// benchmark would report the benchmark's own peak (tens of MiB after it
// wrote a transcript). Stopping the child at exit under ptrace and reading
// VmHWM gives the child's figure alone. Tracing slows the run, so these
// runs are separate from the timed ones.
func peakRSS(bin string, args []string, payload []byte, env []string) (int64, error) {
	in, err := os.CreateTemp("", "context-budget-payload-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(in.Name())
	defer in.Close()
	if _, err := in.Write(payload); err != nil {
		return 0, err
	}
	if _, err := in.Seek(0, 0); err != nil {
		return 0, err
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	defer null.Close()

	// The tracer is the thread that started the child: every ptrace call
	// must come from it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, null, null
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	var ws syscall.WaitStatus
	// The child stops with SIGTRAP at its exec.
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		return 0, err
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACEEXIT); err != nil {
		cmd.Process.Kill()
		return 0, err
	}
	sig := 0
	var hwm int64 = -1
	for {
		if err := syscall.PtraceCont(pid, sig); err != nil {
			return 0, err
		}
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			return 0, err
		}
		if ws.Exited() || ws.Signaled() {
			break
		}
		sig = 0
		if ws.Stopped() {
			if ws.TrapCause() == syscall.PTRACE_EVENT_EXIT {
				hwm, err = vmHWM(pid)
				if err != nil {
					return 0, err
				}
			} else if s := ws.StopSignal(); s != syscall.SIGTRAP {
				sig = int(s) // pass the child's own signals on (Go's preemption uses SIGURG)
			}
		}
	}
	if hwm < 0 {
		return 0, fmt.Errorf("%s: exited without an exit stop", bin)
	}
	return hwm, nil
}

// vmHWM reads the peak resident set of a live process, in bytes.
func vmHWM(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			f := bytes.Fields(v)
			if len(f) == 2 && string(f[1]) == "kB" {
				n, err := strconv.ParseInt(string(f[0]), 10, 64)
				return n << 10, err
			}
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}

// minorFaults is a finished child's count of minor page faults (pages
// mapped without a read from disk): in a short-lived Go program they are
// much of the start-up, and they do not depend on the machine's load.
func minorFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Minflt
	}
	return 0
}
