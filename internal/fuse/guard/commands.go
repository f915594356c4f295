package guard

// One simple command: what its program does to the paths it is given.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// readOnly are programs that only read the paths they are given.
var readOnly = []string{"cat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq",
	"ls", "tree", "wc", "diff", "cmp", "stat", "file", "du", "df", "md5sum", "sha1sum", "sha256sum", "sha512sum",
	"shasum", "cksum", "b2sum", "realpath", "readlink", "dirname", "basename", "echo", "printf", "test", "[",
	"cd", "pushd", "popd", "pwd", "which", "type", "hexdump", "xxd", "od", "strings", "nl", "cut", "tr", "column",
	"bat", "true", "false", "date", "sleep", "exit", "source", "."}

// writers are programs that write the files they are given.
var writers = []string{"tee", "truncate", "touch", "dd", "sed", "perl", "ruby", "mkdir", "mkfifo", "mknod", "curl",
	"wget", "sort", "uniq", "patch", "split", "csplit", "tar", "unzip", "gzip", "gunzip", "zip", "xz", "bzip2"}

// removers are programs that remove or lock out every path they are
// given.
var removers = []string{"rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put", "chmod", "chown", "chgrp", "chattr", "setfacl"}

// command says how one simple command would lift the fuse. Commands
// hidden inside it (a shell's -c, find -exec, xargs' input) are added to
// cmds to be read in turn.
func (g *guard) command(c simple, cmds *[]simple) string {
	for _, w := range c.writes {
		if why := g.check(w, c.dir, writes); why != "" {
			return why
		}
	}
	args, dir, xargs, inner, away := unwrap(c, g.getenv)
	*cmds = append(*cmds, inner...)
	if g.prose {
		away = ""
	}
	g.code = append(g.code, codeOf(c, args, dir)...)
	if len(args) == 0 {
		return away
	}
	prog := filepath.Base(args[0].text)
	if isOurs(args[0].text) || prog == "go" && len(args) > 2 && args[1].text == "run" && strings.Contains(args[2].text, "context-budget") {
		if why := ours(args, xargs); why != "" {
			return why
		}
		return away
	}
	if why := nestedSession(prog, args, g.getenv("CLAUDE_CODE_EXECPATH")); why != "" && (!g.prose || len(args) > 1) {
		return why
	}
	if away != "" {
		return away
	}
	if slices.Contains([]string{"unset", "export", "declare", "typeset", "readonly", "local"}, prog) {
		for _, a := range args[1:] {
			if name, _, _ := strings.Cut(a.text, "="); slices.Contains(markers, name) {
				return "set or unset " + name + ", by which the CLI knows Claude Code runs it"
			}
		}
	}
	ops := operands(args)
	var why string
	check := func(ws []word, how int) {
		for _, w := range ws {
			if why == "" {
				why = g.check(w, dir, how)
			}
		}
	}
	// into checks dest, and dest's copy of each source, as written.
	into := func(srcs []word, dest word) {
		check([]word{dest}, writes)
		for _, src := range srcs {
			check([]word{{text: filepath.Join(dest.text, filepath.Base(src.text)), dyn: dest.dyn, glob: dest.glob}}, writes)
		}
	}
	how := writes
	if prog == "cat" {
		// cat's output may be a copy of what it reads, under a name of
		// the line's choosing.
		check(ops, copied)
	}
	switch n := len(ops); {
	case slices.Contains(removers, prog):
		how = removes
		check(ops, removes)
	case prog == "mv" || prog == "ln":
		// A link to what the fuse stands on is a way to write it.
		how = removes
		if prog == "ln" {
			how = linked
		}
		if n > 1 {
			check(ops[:n-1], how)
			check(ops[:n-1], copied)
			into(ops[:n-1], ops[n-1])
		} else {
			check(ops, how)
			check(ops, copied)
		}
	case prog == "cp" || prog == "install" || prog == "rsync" || prog == "scp":
		if n > 1 {
			if prog == "rsync" && slices.ContainsFunc(args, func(a word) bool { return strings.HasPrefix(a.text, "--delete") }) {
				check(ops[n-1:], removes)
			}
			if prog == "rsync" && slices.ContainsFunc(args, func(a word) bool { return a.text == "--remove-source-files" }) {
				check(ops[:n-1], removes)
			}
			if shortFlag(args, 'r', "--recursive") || shortFlag(args, 'R', "--recursive") || shortFlag(args, 'a', "--archive") {
				for _, src := range ops[:n-1] {
					check([]word{g.treeRoot(prog, src, ops[n-1], dir)}, fills)
				}
			}
			if prog == "cp" && (shortFlag(args, 'l', "--link") || shortFlag(args, 's', "--symbolic-link")) {
				check(ops[:n-1], linked)
			}
			check(ops[:n-1], copied)
			into(ops[:n-1], ops[n-1])
		}
		if prog == "rsync" {
			// --link-dest=DIR links files of DIR (relative: to the
			// destination) into the destination.
			for k, a := range args {
				v, ok := strings.CutPrefix(a.text, "--link-dest=")
				if !ok && a.text == "--link-dest" && k+1 < len(args) {
					v, ok = args[k+1].text, true
				}
				if ok && n > 0 {
					check([]word{{text: absIn(g.home(v), absIn(ops[n-1].text, dir)), dyn: a.dyn, glob: a.glob}}, linked)
				}
			}
		}
	case prog == "tar" && slices.ContainsFunc(args, func(a word) bool { return a.text == "--remove-files" }):
		// tar --remove-files removes what it archives, named from the
		// folder -C moves it to.
		how = removes
		base := dir
		for k := 1; k < len(args); k++ {
			a := args[k].text
			switch {
			case strings.HasPrefix(a, "--directory="):
				base = absIn(strings.TrimPrefix(a, "--directory="), dir)
			case a == "-C" || a == "--directory":
				if k++; k < len(args) {
					base = absIn(args[k].text, dir)
				}
			case a == "--file" || a == "-T" || a == "-X" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "fTX"):
				k++ // the archive's name, or a list's: not archived
			case !strings.HasPrefix(a, "-") && why == "":
				why = g.check(args[k], base, removes)
			}
		}
	case prog == "link":
		check(ops[:min(n, 1)], linked)
		check(ops[:min(n, 1)], copied)
		check(ops[min(n, 1):], writes)
	case prog == "cpio" || prog == "pax":
		// cpio -pl links the files its input names; pax -rwl those it
		// is given.
		if shortFlag(args, 'l', "--link") {
			how = linked
			check(ops, linked)
			check(c.piped, linked)
		}
		check(unpacksInto(prog, args, dir), fills)
	case tars(prog) || prog == "unzip" || strings.HasPrefix(prog, "7z"):
		t := g.readTar(prog, args, dir)
		check(ops, writes)
		check(t.into, fills)
		check(t.removed, removes)
		for _, w := range t.lost {
			if why == "" {
				why = g.check(w, "", removes)
			}
		}
		*cmds = append(*cmds, t.runs...)
	case prog == "find":
		if findWrites(args) {
			how = removes
			check(findStarts(args), removes)
		}
	case prog == "git":
		how = removes
		check(gitTouches(args, g.root, dir), removes)
	case !slices.Contains(readOnly, prog):
		// The rest may write any file they are given: the known writers
		// (tee, truncate, touch, sed -i, dd of=, curl -o…) whatever it is
		// called, any other program (a script's interpreter) a file that
		// names a place; the guard does not tell their reads from writes.
		how := named
		if slices.Contains(writers, prog) {
			how = writes
		}
		if !g.prose || how == writes {
			check(ops, how)
		}
		for _, a := range args[1:] {
			if v, ok := strings.CutPrefix(a.text, "of="); ok {
				check([]word{{text: g.home(v), dyn: a.dyn, glob: a.glob}}, writes)
			}
			if v, ok := strings.CutPrefix(a.text, "if="); ok && prog == "dd" {
				check([]word{{text: g.home(v), dyn: a.dyn, glob: a.glob, claude: a.claude}}, copied)
			}
		}
		if why == "" && slices.Contains(interpreters, strings.TrimRight(prog, "0123456789.")) {
			// Code does what it likes with the paths it is handed: a
			// folder of the config folder's that holds a place is as
			// good as the place (python3 x.py ~/.claude).
			for _, op := range ops {
				if why == "" && !op.dyn && !strings.ContainsAny(op.text, " \t\n'\"();") {
					if w, _ := g.named(absIn(g.home(op.text), dir)); w != "" {
						why = w + ", handed to code the guard does not read)"
					}
				}
			}
		}
	}
	if xargs {
		// xargs adds words from its input: what the pipeline before it
		// names counts as an operand.
		check(c.piped, how)
	}
	return why
}

// treeRoot is where a recursive copy of src into dest puts src's
// content: dest itself for src/. (and rsync's src/), or when dest is not
// a folder yet; else the folder of src's name in dest.
func (g *guard) treeRoot(prog string, src, dest word, dir string) word {
	d := word{text: g.home(dest.text), dyn: dest.dyn || src.dyn, glob: dest.glob}
	base := filepath.Base(src.text)
	if base == "." || prog == "rsync" && strings.HasSuffix(src.text, "/") {
		return d
	}
	if fi, err := os.Stat(absIn(d.text, dir)); err == nil && fi.IsDir() && !d.dyn {
		d.text = filepath.Join(d.text, base)
	}
	return d
}

// unpacksInto is the folder cpio or pax fills with what it reads, the
// guard cannot know what: cpio -i (extract) and pax -r its folder, cpio
// -p and pax -rw the last of their operands.
func unpacksInto(prog string, args []word, dir string) []word {
	ops := operands(args)
	extract := shortFlag(args, 'i', "--extract") && !shortFlag(args, 't', "--list")
	pass := shortFlag(args, 'p', "--pass-through")
	if prog == "pax" {
		extract, pass = shortFlag(args, 'r', "-r") && !shortFlag(args, 'w', "-w"), shortFlag(args, 'r', "-r") && shortFlag(args, 'w', "-w")
	}
	switch {
	case pass && len(ops) > 0:
		return ops[len(ops)-1:]
	case extract:
		return []word{{text: dir}}
	}
	return nil
}

// tars are tar's programs.
func tars(prog string) bool {
	return prog == "tar" || prog == "gtar" || prog == "bsdtar"
}

// tarRead is what an archiver's words do: the folders it unpacks into,
// what it removes once archived (tar --remove-files, zip -m's kin), and
// the commands it runs (tar --to-command, -I, --use-compress-program,
// --checkpoint-action=exec=).
type tarRead struct {
	into, removed []word
	lost          []word // removed, from a folder (-C) the guard cannot know
	runs          []simple
}

// tarValued are tar's options that take the next word as their value:
// one-letter ones (alone, or last in a bundle), then long ones.
const tarValued = "bCfFgHIKLNTVX"

var tarLong = []string{"--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--transform", "--xform",
	"--owner", "--group", "--mode", "--format", "--label", "--newer", "--after-date", "--use-compress-program",
	"--to-command", "--rsh-command", "--info-script", "--new-volume-script", "--starting-file", "--listed-incremental",
	"--blocking-factor", "--tape-length", "--record-size", "--checkpoint-action", "--index-file", "--volno-file"}

// readTar reads tar's, unzip's or 7z's words, run in dir.
func (g *guard) readTar(prog string, args []word, dir string) tarRead {
	var t tarRead
	abs := func(w word, in string) word {
		if in != "" && !w.dyn || filepath.IsAbs(w.text) {
			w.text = absIn(w.text, in)
		}
		return w
	}
	switch {
	case prog == "unzip":
		// unzip ARCHIVE [MEMBERS] [-d DIR]; -l, -t, -v, -z, -Z, -p and
		// -c only list, test or print.
		into := word{text: dir}
		for k := 1; k < len(args); k++ {
			a := args[k].text
			switch {
			case a == "-d" && k+1 < len(args):
				into = abs(args[k+1], dir)
				k++
			case strings.HasPrefix(a, "-d") && len(a) > 2:
				into = abs(word{text: a[2:], dyn: args[k].dyn}, dir)
			case a == "-Z" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "ltvzpc"):
				return t
			}
		}
		t.into = []word{into}
		return t
	case strings.HasPrefix(prog, "7z"):
		// 7z x|e ARCHIVE [-oDIR]
		if len(args) < 2 || args[1].text != "x" && args[1].text != "e" {
			return t
		}
		into := word{text: dir}
		for _, a := range args[2:] {
			if v, ok := strings.CutPrefix(a.text, "-o"); ok {
				into = abs(word{text: v, dyn: a.dyn}, dir)
			}
		}
		t.into = []word{into}
		return t
	}
	extract, remove := false, false
	cwd := dir // -C moves it, for the members after
	var members []word
	mode := func(letters string) {
		extract = extract || strings.ContainsRune(letters, 'x')
	}
	value := func(opt string, v word) {
		switch opt {
		case "C", "--directory":
			if v.dyn {
				cwd = ""
			} else if cwd != "" || filepath.IsAbs(v.text) {
				cwd = absIn(v.text, cwd)
			}
		case "I", "--use-compress-program", "--to-command", "--rsh-command", "F", "--info-script", "--new-volume-script":
			t.runs = append(t.runs, parse(v.text, dir, g.getenv)...)
		case "--checkpoint-action":
			if cmd, ok := strings.CutPrefix(v.text, "exec="); ok {
				t.runs = append(t.runs, parse(cmd, dir, g.getenv)...)
			}
		}
	}
	for k := 1; k < len(args); k++ {
		a := args[k].text
		switch {
		case a == "--":
			members = append(members, args[k+1:]...)
			k = len(args)
		case strings.HasPrefix(a, "--"):
			name, v, eq := strings.Cut(a, "=")
			switch {
			case name == "--extract" || name == "--get":
				extract = true
			case name == "--remove-files":
				remove = true
			case eq:
				value(name, word{text: v, dyn: args[k].dyn})
			case slices.Contains(tarLong, name) && k+1 < len(args):
				k++
				value(name, args[k])
			}
		case strings.HasPrefix(a, "-") && len(a) > 1 || k == 1 && !strings.ContainsAny(a, "/."):
			// -xzf F, or the old bundle xzf F (its values follow it).
			letters := strings.TrimPrefix(a, "-")
			mode(letters)
			old := !strings.HasPrefix(a, "-")
			for j := 0; j < len(letters); j++ {
				if strings.IndexByte(tarValued, letters[j]) < 0 {
					continue
				}
				if !old && j+1 < len(letters) {
					value(letters[j:j+1], word{text: letters[j+1:], dyn: args[k].dyn})
					break
				}
				if k+1 < len(args) {
					k++
					value(letters[j:j+1], args[k])
				}
			}
		case cwd == "" && !filepath.IsAbs(args[k].text):
			members = append(members, word{text: args[k].text, dyn: true})
		default:
			members = append(members, abs(args[k], cwd))
		}
	}
	if extract {
		t.into = []word{{text: cwd}}
	}
	if remove {
		for _, m := range members {
			if m.dyn && !filepath.IsAbs(m.text) {
				t.lost = append(t.lost, word{text: m.text})
			} else {
				t.removed = append(t.removed, m)
			}
		}
	}
	return t
}

// shortFlag reports whether a command's words hold the option long or the
// one-letter option letter, alone or among others (-al).
func shortFlag(args []word, letter byte, long string) bool {
	return slices.ContainsFunc(args[1:], func(a word) bool {
		t := a.text
		return t == long || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.IndexByte(t[1:], letter) >= 0
	})
}

// operands are a command's words after its program that are not
// options.
func operands(args []word) []word {
	var ops []word
	dashdash := false
	for _, a := range args[1:] {
		switch {
		case dashdash:
			ops = append(ops, a)
		case a.text == "--":
			dashdash = true
		case strings.HasPrefix(a.text, "-") && len(a.text) > 1:
			if v, ok := strings.CutPrefix(a.text, "--target-directory="); ok {
				ops = append(ops, word{text: v, dyn: a.dyn, glob: a.glob})
			}
		default:
			ops = append(ops, a)
		}
	}
	return ops
}

// findActions are find's words that delete or run a command on what it
// finds.
var findActions = []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}

// findWrites reports a find that deletes or runs a command on what it
// finds, unless every -name it filters by spares the names the fuse
// stands on (find . -name '*.o' -delete).
func findWrites(args []word) bool {
	acts := slices.ContainsFunc(args[1:], func(a word) bool { return slices.Contains(findActions, a.text) })
	return acts && !findSpares(args)
}

// findSpares reports a find with a -name filter where every -name spares
// the names the fuse stands on.
func findSpares(args []word) bool {
	spared := false
	for k := 1; k+1 < len(args); k++ {
		if args[k].text == "-name" || args[k].text == "-iname" {
			spared = true
			for _, n := range standsOn {
				if ok, _ := filepath.Match(strings.ToLower(args[k+1].text), n); ok {
					return false
				}
			}
		}
	}
	return spared
}

// standsOn are names of the files and folders the fuse stands on, for a
// find's -name to be tried against.
var standsOn = []string{"settings.json", "settings.local.json", "managed-settings.json", "prices.toml", "prices.json",
	"s.jsonl", "s.json", "s.fuse", "s.spend", "s.halts", "s.fuse.lock", "day-2026-01-01.json", "context-budget",
	"context-budget-cli", ".claude", "fuse", "projects", "subagents", "sessions", "costs", "2026-01", "claude-code"}

// findStarts are the folders find starts from ("." when none).
func findStarts(args []word) []word {
	var starts []word
	for _, a := range args[1:] {
		if strings.HasPrefix(a.text, "-") || a.text == "(" || a.text == "!" {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []word{{text: "."}}
	}
	return starts
}
