package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// gitTouches are the paths a git command overwrites or removes in the
// work tree, made absolute: clean (unless a dry run), stash with
// untracked files, reset --hard (the work tree), checkout and restore of
// paths, rm and mv.
func gitTouches(args []word, root, dir string) []word {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i].text, "-") {
		if args[i].text == "-C" && i+1 < len(args) && dir != "" {
			dir = absIn(args[i+1].text, dir)
		}
		if args[i].text == "-C" || args[i].text == "-c" {
			i++
		}
		i++
	}
	if i >= len(args) || dir == "" {
		return nil
	}
	sub, rest := args[i].text, args[i+1:]
	abs := func(ws []word) []word {
		out := make([]word, 0, len(ws))
		for _, w := range ws {
			if !w.dyn {
				w.text = absIn(w.text, dir)
			}
			out = append(out, w)
		}
		return out
	}
	tree := []word{{text: dir}}
	if root != "" && (dir == root || strings.HasPrefix(dir, root+string(filepath.Separator))) {
		tree = []word{{text: root}}
	}
	has := func(flags ...string) bool {
		return slices.ContainsFunc(rest, func(a word) bool {
			return slices.ContainsFunc(flags, func(f string) bool {
				return a.text == f || len(f) == 2 && strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.Contains(a.text, f[1:])
			})
		})
	}
	paths := abs(operands(args[i:]))
	switch sub {
	case "clean":
		if has("-n", "--dry-run") {
			return nil
		}
		if len(paths) == 0 {
			return []word{{text: dir}}
		}
		return paths
	case "stash":
		if has("-u", "-a", "--include-untracked", "--all") {
			return tree
		}
	case "reset":
		if has("--hard", "--merge", "--keep") {
			return tree
		}
	case "checkout", "restore":
		if k := slices.IndexFunc(rest, func(a word) bool { return a.text == "--" }); k >= 0 {
			return abs(rest[k+1:])
		}
		if sub == "restore" {
			return paths
		}
		// git checkout X: X is a branch unless it names a path.
		return slices.DeleteFunc(paths, func(p word) bool { _, err := os.Lstat(p.text); return err != nil })
	case "rm", "mv":
		return paths
	}
	return nil
}
