package guard

import (
	"strings"
	"testing"
)

// liftFromPty is the red team's lift: a double fork reparents socat to
// init (no ancestry for the CLI to read) and socat's pty gives the CLI
// a terminal on standard input, so both of the CLI's rules pass.
const liftFromPty = `( socat - EXEC:"env -i HOME=/home/u context-budget budget disarm --session S --project P",pty,setsid,ctty > /tmp/socat.out 2>&1 & ); sleep 2; cat /tmp/socat.out`

// ptySpellings are ways to give a command a pseudo-terminal, by class.
var ptySpellings = map[string][]string{
	"socat": {
		liftFromPty,
		`socat - EXEC:./lift.sh,pty,setsid,ctty`,
		`socat - 'exec:./lift.sh,PTY,stderr'`,
		`socat PTY,link=/tmp/t,raw EXEC:./lift.sh`,
		`socat - SYSTEM:./lift.sh,pty-wait-slave`,
	},
	"ssh": {
		"ssh -t localhost ./lift.sh",
		"ssh -tt localhost ./lift.sh",
		"ssh -qt localhost ./lift.sh",
		"ssh -p 22 -t me@localhost ./lift.sh",
		"ssh -o RequestTTY=force localhost ./lift.sh",
		"ssh -oRequestTTY=yes localhost ./lift.sh",
		"ssh -o 'RequestTTY yes' localhost ./lift.sh",
		"mosh localhost -- ./lift.sh",
	},
	"the makers": {
		"script -qc ./lift.sh /dev/null",
		"dtach -n /tmp/s ./lift.sh",
		"abduco -n s ./lift.sh",
		"unbuffer ./lift.sh",
		"nice unbuffer ./lift.sh",
		"expect -c 'spawn ./lift.sh; interact'",
		"empty -f ./lift.sh",
	},
	"code": {
		`python3 -c "import pty; pty.spawn(['./lift.sh'])"`,
		`python3 -c "from pty import spawn as s; s('./lift.sh')"`,
		// Naming the module is enough: the import is where every use
		// starts, and a session has no use for it while a cap holds.
		`python3 -c "import pty"`,
		`python3 -c "import os; m, s = os.openpty()"`,
		`python3 -c "import pexpect; pexpect.spawn('./lift.sh').interact()"`,
		`python3 -c "import os; os.system('socat - EXEC:./lift.sh,pty')"`,
		`ruby -e 'require "pty"; PTY.spawn("./lift.sh") { |r, w, pid| Process.wait(pid) }'`,
		`perl -MIO::Pty -e 'IO::Pty->new'`,
		`node -e "require('node-pty').spawn('./lift.sh', [])"`,
		`zsh -c 'zmodload zsh/zpty; zpty w ./lift.sh'`,
	},
}

// TestGuardDeniesPtyMakers: while armed, every way to give a command a
// pseudo-terminal is denied by the pty rule, which the denial names.
func TestGuardDeniesPtyMakers(t *testing.T) {
	w := newGuardWorld(t)
	for class, cmds := range ptySpellings {
		for _, cmd := range cmds {
			if why := w.bash(cmd); !strings.Contains(why, "pseudo-terminal") {
				t.Errorf("%s: %q: want the pty rule, got %q", class, cmd, why)
			}
		}
	}
	// What socat and ssh run is read as commands of the line.
	for _, cmd := range []string{
		"socat - SYSTEM:'rm -rf ~/.claude/context-budget'",
		"socat - EXEC:'context-budget budget disarm'",
		"ssh localhost rm -rf ~/.claude/context-budget",
		"ssh -p 22 localhost 'context-budget budget disarm'",
	} {
		if why := w.bash(cmd); why == "" || strings.Contains(why, "pseudo-terminal") {
			t.Errorf("%q: want its command denied, got %q", cmd, why)
		}
	}
	for _, cmd := range []string{
		"socat TCP-LISTEN:8080,fork,reuseaddr TCP:localhost:80",
		"socat - UNIX-CONNECT:/tmp/app.sock",
		"socat - EXEC:'make test'",
		"ssh build-host make",
		"ssh -T git@github.com",
		"ssh -ltom host uptime",
		"ssh -i ~/.ssh/id_tt -p 2222 host 'cd repo && go test ./...'",
		"ssh -o StrictHostKeyChecking=no -o RequestTTY=no host ls",
		"git push origin main",
		"grep -rn openpty src/",
		"echo pty",
		`python3 -c "print('empty')"`,
		`python3 -c "import sys; print(sys.stdout.isatty())"`,
		`python3 -c "import os; print(os.ttyname(0))"`,
		`node -e "console.log(process.stdout.isTTY)"`,
		"( npm run dev > dev.log 2>&1 & )",
	} {
		w.allow(t, cmd)
	}
}

// FuzzPtyMakers: the fuzzer picks a pty spelling, a way to start it and
// a command to add after it: the guard denies every one.
func FuzzPtyMakers(f *testing.F) {
	var spellings []string
	for _, class := range []string{"socat", "ssh", "the makers", "code"} {
		spellings = append(spellings, ptySpellings[class]...)
	}
	ways := []string{"%s", "( %s & )", "nice %s", "timeout 5 %s", "bash -c %q", "env -i PATH=/usr/bin %s", "cd /tmp && %s",
		"echo start; %s", "%s &", "sh -c %q &", "{ %s; }", "x=$( %s )"}
	f.Add(uint8(0), uint8(1), "; sleep 2")
	fuzzDenied(f, newGuardWorld(f), spellings, ways)
}
