package cold

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// Work is what the project's git tree says about picking the work up in a
// fresh session.
type Work struct {
	// Branch is the checked-out branch; "" when detached or unknown.
	Branch string
	// Committed is set when nothing is uncommitted (untracked files
	// included; the state folder ignores itself).
	Committed bool
	// Known is false when git could not tell (no repository, no git).
	Known bool
}

// gitTimeout bounds the look-up: the hook runs under Claude Code's
// timeout, and a slow repository must not cost the prompt.
const gitTimeout = 2 * time.Second

// LookWork asks git about root with one `git status`.
func LookWork(root string) Work {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain=v1", "--branch", "--untracked-files=normal")
	out, err := cmd.Output()
	if err != nil {
		return Work{}
	}
	return ParseStatus(out)
}

// ParseStatus reads `git status --porcelain=v1 --branch`: a "## " header
// naming the branch, then one line per change.
func ParseStatus(out []byte) Work {
	w := Work{Known: true, Committed: true}
	for i, line := range strings.Split(string(out), "\n") {
		if i == 0 && strings.HasPrefix(line, "## ") {
			w.Branch = branchOf(line[3:])
		} else if strings.TrimSpace(line) != "" {
			w.Committed = false
		}
	}
	return w
}

// branchOf reads the branch from a status header: "main...origin/main
// [ahead 1]", "main", "No commits yet on main", "HEAD (no branch)".
func branchOf(h string) string {
	if strings.HasPrefix(h, "HEAD (no branch)") {
		return ""
	}
	for _, p := range []string{"No commits yet on ", "Initial commit on "} {
		if rest, ok := strings.CutPrefix(h, p); ok {
			h = rest
			break
		}
	}
	h, _, _ = strings.Cut(h, "...")
	if f := strings.Fields(h); len(f) > 0 {
		return f[0]
	}
	return ""
}
