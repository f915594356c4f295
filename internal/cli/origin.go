package cli

// Where a lift is asked from. Lifting the spend fuse is the user's act,
// typed at their own terminal (design §13, turn 4): the budget verbs that
// lift refuse when Claude Code's variables say a session runs them, when
// any process they descend from is Claude Code (read from the system,
// which a command cannot unset as it unsets a variable), or when
// standard input is not a terminal (what a session's tools, or a command
// detached from them, run without).

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/muthur/context-budget/internal/fuse/guard"
	"github.com/muthur/context-budget/internal/reading"
)

// process is one process a command descends from: its id, its program
// (where the system says, /proc/<pid>/exe) and its words.
type process struct {
	pid  int
	exe  string
	args []string
}

// origin is what the lift check reads of where it runs: the processes it
// descends from, its parent first, and whether standard input is a
// terminal.
type origin struct {
	ancestors []process
	terminal  bool
}

// testOnlyOrigin reads the origin. Tests replace it, in their own
// process, to stand for the user's terminal or a session: the tests may
// themselves run inside Claude Code, and no variable, which the agent
// could set as well, may stand for it.
var testOnlyOrigin = readOrigin

// readOrigin reads the ancestry from the system and asks the terminal.
func readOrigin() origin {
	return origin{ancestors: ancestors(os.Getppid()), terminal: term.IsTerminal(int(os.Stdin.Fd()))}
}

// maxAncestors bounds the walk up the process tree.
const maxAncestors = 64

// ancestors are pid and the processes it descends from, up to init: from
// /proc where there is one, else from ps. A process that cannot be read
// ends the walk there.
func ancestors(pid int) []process {
	var out []process
	for len(out) < maxAncestors && pid > 1 {
		p, parent, ok := readProcess(pid)
		if !ok {
			break
		}
		out = append(out, p)
		if parent == pid {
			break
		}
		pid = parent
	}
	return out
}

// readProcess reads one process: from /proc/<pid> (exe, cmdline, and the
// parent from stat), else from ps.
func readProcess(pid int) (p process, parent int, ok bool) {
	p.pid = pid
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	if stat, err := reading.ReadFile(filepath.Join(dir, "stat"), reading.MaxProcFile); err == nil {
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		fields := strings.Fields(string(stat[i+1:]))
		if i < 0 || len(fields) < 2 {
			return p, 0, false
		}
		parent, _ = strconv.Atoi(fields[1])
		p.exe, _ = os.Readlink(filepath.Join(dir, "exe"))
		p.exe = strings.TrimSuffix(p.exe, " (deleted)") // a program replaced since it started
		cmdline, _ := reading.ReadFile(filepath.Join(dir, "cmdline"), reading.MaxProcFile)
		p.args = strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		return p, parent, true
	}
	if runtime.GOOS == "windows" {
		return p, 0, false
	}
	out, err := exec.Command("ps", "-o", "ppid=", "-o", "command=", "-p", strconv.Itoa(pid)).Output()
	fields := strings.Fields(string(out))
	if err != nil || len(fields) < 2 {
		return p, 0, false
	}
	parent, _ = strconv.Atoi(fields[0])
	p.args = fields[1:]
	return p, parent, true
}

// liftRefused says why the CLI refuses a lifting verb here, "" when it
// lifts: which rule refused, and what it saw.
func liftRefused(verb string, getenv func(string) string, o origin) string {
	for _, v := range []string{"CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_CHILD_SESSION"} {
		if getenv(v) != "" {
			return fmt.Sprintf("budget %s is refused inside a Claude Code session (%s is set): lifting the spend fuse is the user's act", verb, v)
		}
	}
	for _, p := range o.ancestors {
		if guard.ClaudeCode([]string{p.exe}) || guard.ClaudeCode(p.args) {
			what := p.exe
			if len(p.args) > 0 && p.args[0] != "" {
				what = strings.Join(p.args, " ")
			}
			if len(what) > 120 {
				what = what[:117] + "..."
			}
			return fmt.Sprintf("budget %s is refused inside a Claude Code session (it descends from Claude Code, process %d: %s): lifting the spend fuse is the user's act", verb, p.pid, what)
		}
	}
	if !o.terminal {
		return fmt.Sprintf("budget %s is refused without a terminal on standard input (what a session's tools and the commands they detach run without): lifting the spend fuse is the user's act, typed at their own terminal", verb)
	}
	return ""
}
