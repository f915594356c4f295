package guard

// The programs that run another command given in their words: env, the
// wrappers, the shells, eval and find -exec.

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
)

// wrappers are the programs that run a command given in their words
// (env's is apart), each with its options that take a value. A function:
// a package-level map would run an init in the hot program.
func wrappers() map[string][]string {
	return map[string][]string{
		"sudo":    {"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"},
		"doas":    {"-u", "-C"},
		"nice":    {"-n"},
		"stdbuf":  {"-i", "-o", "-e"},
		"ionice":  {"-c", "-n", "-p", "-P", "-u"},
		"timeout": {"-s", "-k"},
		"flock":   {"-w", "-E", "-c"},
		"exec":    {"-a"},
		"watch":   {"-n", "-d", "-q"},
		"xargs":   {"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s"},
		"su":      {"-c", "-s", "-g", "-G"},
		"runuser": {"-c", "-s", "-g", "-G", "-u", "-w"},
		"sg":      {"-c"},
		"strace":  {"-o", "-e", "-p", "-s"},
		"ltrace":  {"-o", "-e", "-p", "-s"},
		"time":    {"-f", "-o"},
		"nohup":   nil, "builtin": nil, "setsid": nil, "chrt": nil, "taskset": nil, "unbuffer": nil, "caffeinate": nil,
		"command": nil, "busybox": nil, "ifne": nil, "chronic": nil,
	}
}

// markers are the variables by which Claude Code marks what it runs, and
// the CLI knows a lift is asked from inside a session: unsetting or
// changing them hides that.
var markers = []string{"CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_CHILD_SESSION", "CLAUDECODE"}

// starters run a command away from the session that asks: detached, so
// that it outlives the call with init for a parent (setsid, nohup,
// disown, tmux, screen, at and the like), or under a pseudo-terminal,
// namespaces or privileges of their own (script, unshare, nsenter,
// setpriv, prlimit, fakeroot, dbus-run-session). The CLI tells a lift
// asked from inside Claude Code by its ancestry and a terminal; a command
// started so has neither to read.
var starters = []string{"setsid", "nohup", "disown", "tmux", "screen", "at", "batch", "systemd-run", "daemonize",
	"start-stop-daemon", "prlimit", "setpriv", "unshare", "fakeroot", "nsenter", "dbus-run-session"}

// ptyMakers run a command on a pseudo-terminal of its own. A terminal on
// standard input is the one thing a lift needs besides an ancestry the
// CLI cannot read (a command reparented to init: ( … & ), disown, cron),
// and a session under Claude Code has no use for one: while armed the
// guard denies them all, whatever they run. socat only with a pty
// address or option, ssh only with -t, -tt or RequestTTY; the others
// make one whenever they run a command (zpty is zsh's builtin).
var ptyMakers = []string{"script", "expect", "unbuffer", "empty", "dtach", "abduco", "mosh", "zpty", "socat", "ssh"}

// startsAway says why a command would run out of the CLI's sight, "" when
// it would not: a starter, but for tmux's and screen's commands that only
// look (tmux ls, screen -ls).
func startsAway(prog string, args []word) string {
	if !slices.Contains(starters, prog) {
		return ""
	}
	if len(args) > 1 {
		a := args[1].text
		switch {
		case prog == "tmux" && slices.Contains([]string{"ls", "list-sessions", "list-windows", "list-panes", "list-clients", "has-session", "has", "capture-pane", "capturep", "show-options", "show", "info", "-V"}, a),
			prog == "screen" && slices.Contains([]string{"-ls", "-list", "-v", "--version"}, a):
			return ""
		}
	}
	return "start a command through " + prog + ", away from this session, where the CLI cannot tell that Claude Code started it"
}

// onPty says why a command would give a command a pseudo-terminal, ""
// when it would not.
func onPty(prog string, args []word) string {
	if !slices.Contains(ptyMakers, prog) {
		return ""
	}
	how := prog
	switch prog {
	case "socat":
		if !slices.ContainsFunc(args[1:], socatPty) {
			return ""
		}
		how = "socat's pty"
	case "ssh":
		if tty, _ := sshCommand(args); !tty {
			return ""
		}
		how = "ssh -t"
	}
	return ptyWhy(how)
}

// ptyWhy is the pty rule's reason, naming how the terminal is made.
func ptyWhy(how string) string {
	return "give a command a pseudo-terminal, which no session needs and the CLI would take for the user's own terminal (" + how + ")"
}

// socatPty reports a socat address that makes a pseudo-terminal: the PTY
// address, or the pty option (and its pty-… kin) of any address.
func socatPty(w word) bool {
	for _, part := range strings.Split(w.text, ",") {
		name, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(part)), "=")
		if name == "pty" || strings.HasPrefix(name, "pty-") {
			return true
		}
	}
	return false
}

// socatCommands are the shell commands socat's EXEC: and SYSTEM:
// addresses run (up to the address's first option).
func socatCommands(args []word) []string {
	var out []string
	for _, a := range args[1:] {
		kind, rest, ok := strings.Cut(a.text, ":")
		if k := strings.ToLower(kind); ok && (k == "exec" || k == "system") {
			cmd, _, _ := strings.Cut(rest, ",")
			out = append(out, cmd)
		}
	}
	return out
}

// sshCommand reads ssh's words: whether it asks for a terminal (-t, -tt,
// -o RequestTTY=yes or force), and the command it runs on the host.
func sshCommand(args []word) (tty bool, cmd []word) {
	const withValue = "BbcDEeFIiJLlmOoPpRSWw"
	i := 1
	for ; i < len(args); i++ {
		a := args[i].text
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		for j := 1; j < len(a); j++ {
			if a[j] == 't' {
				tty = true
			}
			if strings.IndexByte(withValue, a[j]) < 0 {
				continue
			}
			v := a[j+1:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i].text
			}
			if a[j] == 'o' {
				// RequestTTY=yes, or RequestTTY yes as ssh_config spells it.
				if f := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == '=' || r == ' ' || r == '\t' }); len(f) == 2 && f[0] == "requesttty" && (f[1] == "yes" || f[1] == "force") {
					tty = true
				}
			}
			break
		}
	}
	if i+1 < len(args) {
		cmd = args[i+1:]
	}
	return tty, cmd
}

// carriers are the variables whose value a program runs as a command:
// an editor, a pager, an ssh or a diff command (LESSOPEN's starts with
// a |).
var carriers = []string{"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF",
	"GIT_ASKPASS", "SSH_ASKPASS", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "SYSTEMD_PAGER", "GH_EDITOR", "GH_PAGER",
	"SUDO_EDITOR", "FCEDIT", "BROWSER", "LESSOPEN", "LESSCLOSE", "PROMPT_COMMAND"}

// carries reports a variable whose value is run as a command.
func carries(name string) bool { return slices.Contains(carriers, name) }

// gitCarries reports a git setting whose value git runs as a command
// (with a leading ! for an alias or a credential helper): the pager and
// editors, ssh, askpass, fsmonitor, diff, merge and filter drivers,
// credential helpers, gpg's program and the like.
func gitCarries(key string) bool {
	key = strings.ToLower(key)
	first, _, _ := strings.Cut(key, ".")
	last := key[strings.LastIndexByte(key, '.')+1:]
	return first == "alias" || first == "pager" || slices.Contains([]string{"pager", "editor", "sshcommand", "askpass", "fsmonitor",
		"external", "command", "textconv", "driver", "clean", "smudge", "process", "helper", "program", "difffilter", "cmd",
		"uploadpack", "receivepack", "packobjectshook", "sendmailcmd", "browser"}, last)
}

// gitCommands are the commands a git command line carries in its
// settings: -c KEY=VALUE before its subcommand (an alias it defines and
// runs gets the words after it), and git config KEY VALUE, which sets
// one for the commands after it.
func gitCommands(args []word) []string {
	var out []string
	aliases := map[string]string{}
	carried := func(key, value string) {
		if gitCarries(key) {
			out = append(out, strings.TrimPrefix(value, "!"))
		}
		if name, ok := strings.CutPrefix(strings.ToLower(key), "alias."); ok {
			aliases[name] = strings.TrimPrefix(value, "!")
		}
	}
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i].text, "-"); i++ {
		switch a := args[i].text; {
		case a == "-c" && i+1 < len(args):
			i++
			key, value, _ := strings.Cut(args[i].text, "=")
			carried(key, value)
		case a == "-C" || a == "--config-env" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		}
	}
	if i < len(args) {
		if cmd, ok := aliases[args[i].text]; ok {
			out = append(out, cmd+" "+joined(args[i+1:]))
		}
	}
	if i < len(args) && args[i].text == "config" {
		var ops []string
		for _, a := range args[i+1:] {
			if !strings.HasPrefix(a.text, "-") && !(len(ops) == 0 && (a.text == "set" || a.text == "--add")) {
				ops = append(ops, a.text)
			}
		}
		if len(ops) >= 2 {
			carried(ops[0], ops[1])
		}
	}
	return out
}

// parallelCommands reads GNU parallel's words: the command it runs (its
// words up to :::) with the arguments after ::: as its operands, or, with
// none, the commands those arguments are.
func parallelCommands(args []word) (cmd []word, each []string) {
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i].text, "-") && !strings.HasPrefix(args[i].text, ":::"); i++ {
		if slices.Contains([]string{"-j", "-P", "-S", "-a", "-d", "-n", "-N", "-L", "-l", "-I", "-E", "--jobs", "--sshlogin",
			"--arg-file", "--delimiter", "--colsep", "--joblog", "--results", "--tmpdir", "--timeout", "--retries"}, args[i].text) {
			i++
		}
	}
	end := slices.IndexFunc(args[min(i, len(args)):], func(a word) bool { return strings.HasPrefix(a.text, ":::") })
	if end < 0 {
		return args[min(i, len(args)):], nil
	}
	var operands []word
	for _, a := range args[i+end:] {
		if !strings.HasPrefix(a.text, ":::") {
			operands = append(operands, a)
			each = append(each, a.reread())
		}
	}
	if end == 0 {
		return nil, each
	}
	return append(slices.Clone(args[i:i+end]), operands...), nil
}

// shells run -c's script, a here-document or what a pipe feeds them.
var shells = []string{"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish"}

// unwrap removes env and the wrappers before a command's program and
// returns its words from the program on, the folder it runs in, whether
// xargs feeds it, the commands hidden in it (a shell's script, eval's
// words, find's -exec), and why it would run out of the CLI's sight
// (away: starters, Claude Code's markers unset).
func unwrap(c simple, getenv func(string) string) (args []word, dir string, xargs bool, inner []simple, away string) {
	args, dir = c.words, c.dir
	sub := func(script string) { inner = append(inner, parse(script, dir, getenv)...) }
	for _, v := range c.vars {
		if away == "" && slices.Contains(markers, v) {
			away = "set or unset " + v + ", by which the CLI knows Claude Code runs it"
		}
	}
	for len(args) > 0 {
		prog := filepath.Base(args[0].text)
		skip := 1
		withValue, wrapper := wrappers()[prog]
		if why := cmp.Or(startsAway(prog, args), onPty(prog, args)); why != "" {
			if away == "" {
				away = why
			}
			if !wrapper {
				return args, dir, xargs, inner, away
			}
		}
		switch {
		case prog == "env":
		opts:
			for skip < len(args) {
				a := args[skip].text
				switch {
				case a == "-S" || a == "--split-string":
					sub(joined(args[skip+1:]))
					return nil, dir, xargs, inner, away
				case strings.HasPrefix(a, "-S") || strings.HasPrefix(a, "--split-string="):
					// -S"cmd …": the string joined to the option.
					sub(strings.TrimPrefix(strings.TrimPrefix(a, "--split-string="), "-S") + " " + joined(args[skip+1:]))
					return nil, dir, xargs, inner, away
				case a == "-C" || a == "--chdir":
					if skip+1 < len(args) && dir != "" {
						dir = absIn(args[skip+1].text, dir)
					}
					skip += 2
				case a == "-u" || a == "--unset":
					if skip+1 < len(args) && away == "" && slices.Contains(markers, args[skip+1].text) {
						away = "unset " + args[skip+1].text + ", by which the CLI knows Claude Code runs it"
					}
					skip += 2
				case strings.HasPrefix(a, "-") || isAssignment(a):
					name, value, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(a, "--unset="), "-u"), "-"), "=")
					if away == "" && slices.Contains(markers, name) {
						away = "set or unset " + name + ", by which the CLI knows Claude Code runs it"
					}
					if isAssignment(a) && carries(name) {
						sub(strings.TrimLeft(value, "|"))
					}
					skip++
				default:
					break opts
				}
			}
		case wrapper:
			if prog == "command" && len(args) > 1 && (args[1].text == "-v" || args[1].text == "-V") {
				return nil, dir, xargs, inner, away // a look-up, not a run
			}
			if prog == "su" || prog == "flock" || prog == "runuser" || prog == "sg" {
				if s, ok := dashC(args); ok {
					sub(s)
					return nil, dir, xargs, inner, away
				}
			}
			xargs = xargs || prog == "xargs"
			skip = wrapped(prog, withValue, args)
			if prog == "watch" && !slices.ContainsFunc(args[:skip], func(w word) bool { return w.text == "-x" }) {
				sub(joined(args[skip:]))
				return nil, dir, xargs, inner, away
			}
		case slices.Contains(shells, prog):
			switch s, ok := dashC(args); {
			case ok:
				sub(s)
			case len(operands(args)) > 0:
				// A script file: out of reach.
			case c.input != "":
				sub(c.input)
			default:
				// Fed by a pipe: each word before it may be a line.
				for _, w := range c.piped {
					sub(w.text)
				}
			}
			return nil, dir, xargs, inner, away
		case prog == "socat":
			for _, s := range socatCommands(args) {
				sub(s)
			}
			return args, dir, xargs, inner, away
		case prog == "ssh":
			// The host may be this one: its command is read as this
			// machine's.
			if _, cmd := sshCommand(args); len(cmd) > 0 {
				sub(joined(cmd))
			}
			return args, dir, xargs, inner, away
		case prog == "eval":
			sub(joined(args[1:]))
			return nil, dir, xargs, inner, away
		case prog == "git":
			for _, s := range gitCommands(args) {
				sub(s)
			}
			return args, dir, xargs, inner, away
		case prog == "parallel" || prog == "sem":
			// GNU parallel runs its command on each argument, or each
			// argument, or each line of its input, as a command.
			cmd, each := parallelCommands(args)
			for _, s := range each {
				sub(s)
			}
			if len(cmd) == 0 {
				for _, w := range c.piped {
					sub(w.text)
				}
				return nil, dir, xargs, inner, away
			}
			args, xargs = cmd, true
			continue
		case prog == "find":
			for k := 1; k < len(args); k++ {
				switch args[k].text {
				case "-exec", "-execdir", "-ok", "-okdir":
					end := k + 1
					for end < len(args) && args[end].text != ";" && args[end].text != "+" {
						end++
					}
					if end > k+1 {
						inner = append(inner, simple{words: args[k+1 : end], dir: dir})
					}
					if slices.ContainsFunc(args[k+1:end], func(w word) bool { return strings.Contains(w.text, "{}") }) {
						// find hands the command what it finds: {} is
						// each name its tests give (as its program, the
						// program find runs).
						for _, name := range findNames(args) {
							run := slices.Clone(args[k+1 : end])
							for j := range run {
								run[j].text = strings.ReplaceAll(run[j].text, "{}", name)
							}
							inner = append(inner, simple{words: run, dir: dir})
						}
					}
				}
			}
			return args, dir, xargs, inner, away
		default:
			return args, dir, xargs, inner, away
		}
		if skip >= len(args) {
			return nil, dir, xargs, inner, away
		}
		args = args[skip:]
		if args[0].text == "--" {
			args = args[1:]
		}
	}
	return args, dir, xargs, inner, away
}

// findNames are the names a find's -name, -iname, -path, -ipath and
// -wholename tests give what it finds: a pattern that Claude Code's
// program name matches stands for that name, as it would find it.
func findNames(args []word) []string {
	var out []string
	for k := 1; k+1 < len(args); k++ {
		switch args[k].text {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			pat := args[k+1].text
			if strings.HasPrefix(args[k].text, "-i") {
				pat = strings.ToLower(pat)
			}
			for _, name := range []string{"claude", "claude.exe", "cli.js"} {
				if ok, _ := filepath.Match(filepath.Base(pat), name); ok && (name != "cli.js" || claudeCode(pat)) {
					pat = filepath.Join(filepath.Dir(pat), name)
					break
				}
			}
			out = append(out, pat)
		}
	}
	return out
}

// wrapped returns where the wrapped command starts in a wrapper's words:
// past the wrapper's options (and the values of those that take one) and
// its own operands (timeout's duration, flock's file, chrt's priority,
// taskset's mask).
func wrapped(prog string, withValue []string, args []word) int {
	i := 1
	for i < len(args) {
		a := args[i].text
		if a == "--" {
			return i + 1
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if slices.Contains(withValue, a) {
			i++
		}
		i++
	}
	switch prog {
	case "timeout", "flock", "chrt", "taskset", "su", "sg":
		// One operand before the command.
		if i < len(args) {
			i++
		}
	}
	return i
}

// dashC returns the script a shell's -c (or -lc, -ec, …) runs.
func dashC(args []word) (string, bool) {
	for k := 1; k+1 < len(args); k++ {
		a := args[k].text
		if a == "-c" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			return args[k+1].reread(), true
		}
	}
	return "", false
}

// joined is words as one line, for eval and the like.
func joined(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.reread()
	}
	return strings.Join(parts, " ")
}
