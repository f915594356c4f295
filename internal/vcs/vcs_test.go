package vcs

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestRepositoryName(t *testing.T) {
	for _, tc := range []struct{ url, top, want string }{
		{"git@github.com:muthur/context-budget.git", "/x/y", "context-budget"},
		{"https://github.com/muthur/context-budget", "", "context-budget"},
		{"https://gitlab.example/group/sub/app.git/", "", "app"},
		{"ssh://git@host:2222/team/svc.git", "", "svc"},
		{"/srv/git/tool.git", "", "tool"},
		{"", "/home/a/work/proj", "proj"},
		{"", "", ""},
	} {
		if got := RepositoryName(tc.url, tc.top); got != tc.want {
			t.Errorf("RepositoryName(%q, %q) = %q, want %q", tc.url, tc.top, got, tc.want)
		}
	}
}

// TestRead: in a work tree, the top, the branch, the origin's name and
// user.email; on a branch with no commit, the same less nothing but the
// branch's commit; outside any tree, nothing.
func TestRead(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "feat/a,b=c")
	run("config", "user.email", "ada@example.com")
	run("remote", "add", "origin", "git@github.com:team/widget.git")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	in := Read(sub)
	real, _ := filepath.EvalSymlinks(dir)
	if in.Top != real || in.Repository != "widget" || in.Author != "ada@example.com" || in.Branch != "" {
		t.Errorf("unborn branch: %+v; want top %s, widget, ada@example.com and no branch yet", in, real)
	}
	run("-c", "user.name=A", "commit", "-q", "--allow-empty", "-m", "x")
	if in := Read(sub); in.Branch != "feat/a,b=c" {
		t.Errorf("branch %q, want feat/a,b=c", in.Branch)
	}
	if in := Read(t.TempDir()); in != (Info{}) {
		t.Errorf("outside a tree: %+v", in)
	}
}
