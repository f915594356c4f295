//go:build unix

package chain

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// A session's keeper (Keep) is the process between the runner and the
// session's claude. On Linux it is a child subreaper
// (PR_SET_CHILD_SUBREAPER): whatever the session starts stays its
// descendant, even what a Bash tool detached with setsid, nohup or a
// double fork, since an orphan is adopted by its nearest subreaper
// rather than by init. When claude exits, the keeper ends every
// descendant left and reaps them, and only then exits: the runner's wait
// for the keeper is the wait for the session's whole process tree. This
// is what a cgroup would give, without one. A process group or a session
// id would not do (setsid leaves both), nor a marker in the environment
// (a program may clear its own); ancestry is what a process cannot
// change. Reaping happens in the keeper, which has no other children,
// never in the runner, whose own commands a stray wait could take.

// Keep runs argv, passing its streams and exit status through, and ends
// what it leaves (see above). A SIGINT, SIGTERM or SIGHUP to the keeper
// (the runner signals its process group, claude's too) starts a grace
// of `grace`, after which, or at a second signal, every descendant is
// killed.
func Keep(argv []string, stderr io.Writer) int {
	if len(argv) == 0 {
		fmt.Fprintln(stderr, "context-budget: keep: no program given")
		return 2
	}
	subreaper()
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGCHLD)
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(stderr, "context-budget: keep: %v\n", err)
		return 127
	}
	p, err := os.StartProcess(prog, argv, &os.ProcAttr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		fmt.Fprintf(stderr, "context-budget: keep: %v\n", err)
		return 127
	}
	var status syscall.WaitStatus
	exited := false
	var kill <-chan time.Time
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for !exited {
		// Every child that ended is reaped: claude, or an orphan the
		// keeper adopted.
		exited = reap(p.Pid, &status)
		if exited {
			break
		}
		select {
		case s := <-sigs:
			if s == syscall.SIGCHLD {
				continue
			}
			if kill != nil {
				endTree()
				continue
			}
			kill = time.After(grace)
		case <-kill:
			endTree()
		case <-tick.C:
		}
	}
	endTree()
	signal.Stop(sigs)
	if status.Signaled() {
		// Die as claude died, so the runner reads the same status.
		signal.Reset(status.Signal())
		syscall.Kill(os.Getpid(), status.Signal())
		return 128 + int(status.Signal())
	}
	return status.ExitStatus()
}

// reap reaps every child that has ended, and reports whether pid is one
// of them, its status in st.
func reap(pid int, st *syscall.WaitStatus) (found bool) {
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || got <= 0 {
			return found
		}
		if got == pid {
			*st, found = ws, true
		}
	}
}

// endRounds bounds the rounds endTree kills in: each round kills every
// descendant it finds, and what they had started is found in the next.
const endRounds = 200

// endTree kills every descendant of the keeper and reaps them, until it
// has no child left.
func endTree() {
	var ws syscall.WaitStatus
	for range endRounds {
		for _, pid := range descendants() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		for {
			got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if errors.Is(err, syscall.ECHILD) {
				return // no child left, so no descendant
			}
			if err != nil || got <= 0 {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}
