// Package vcs reads what the team view names a session by from the git
// work tree it ran in: the top of the tree, the repository's name and the
// branch (OpenTelemetry's vcs.repository.name and vcs.ref.head.name), and
// the author (git's user.email). It runs git twice, without optional
// locks or the file-system monitor, under one deadline; anything git
// cannot say is left empty.
package vcs

import (
	"context"
	"os"
	"os/exec"
	"path"
	"strings"
	"time"
)

// Deadline bounds the look-up: both git commands together.
const Deadline = time.Second

// Info is what git says of a folder. Every field is empty outside a work
// tree, or where git does not know it.
type Info struct {
	// Top is the top of the work tree, as git spells it.
	Top string
	// Repository is the repository's name: the last part of its origin
	// remote's URL without ".git", else the name of the work tree's top
	// folder.
	Repository string
	// Branch is the branch HEAD is on; empty when detached.
	Branch string
	// Author is git's user.email.
	Author string
}

// Read asks git about dir.
func Read(dir string) Info {
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	var in Info
	lines := git(ctx, dir, "rev-parse", "--show-toplevel", "--abbrev-ref", "HEAD")
	if len(lines) == 0 || lines[0] == "" {
		return in
	}
	// A branch with no commit yet has no HEAD to name: git prints the
	// top and fails on the rest.
	in.Top = lines[0]
	if len(lines) > 1 && lines[1] != "HEAD" {
		in.Branch = lines[1]
	}
	origin := ""
	for _, l := range git(ctx, dir, "config", "--get-regexp", `^(user\.email|remote\.origin\.url)$`) {
		k, v, _ := strings.Cut(l, " ")
		switch k {
		case "user.email":
			in.Author = strings.TrimSpace(v)
		case "remote.origin.url":
			origin = strings.TrimSpace(v)
		}
	}
	in.Repository = RepositoryName(origin, in.Top)
	return in
}

// RepositoryName is a repository's name from its remote's URL (https,
// ssh or scp-like, or a path), without an owner or ".git"; else the base
// name of its work tree's top folder.
func RepositoryName(url, top string) string {
	u := strings.TrimRight(strings.TrimSpace(url), "/")
	if i := strings.LastIndexAny(u, "/:"); i >= 0 {
		u = u[i+1:]
	}
	u = strings.TrimSuffix(u, ".git")
	if u != "" && u != "." && u != ".." {
		return u
	}
	if top == "" {
		return ""
	}
	return path.Base(strings.ReplaceAll(top, "\\", "/"))
}

// git runs git in dir and returns its output's lines; none when it fails.
func git(ctx context.Context, dir string, args ...string) []string {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "-c", "core.fsmonitor=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}
