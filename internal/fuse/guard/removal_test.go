package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardRemovalSpellings: the red team's spellings that removed the
// fuse's state root past the guard, by class, are denied; so is the
// witness's folder; the ordinary work beside them passes.
func TestGuardRemovalSpellings(t *testing.T) {
	w := newGuardWorld(t)
	w.e["CLAUDE_CONFIG_DIR"] = filepath.Join(w.home, ".claude")
	witness := filepath.Join(w.home, ".local", "state", "context-budget")
	if err := os.MkdirAll(filepath.Join(witness, "fuse"), 0o700); err != nil {
		t.Fatal(err)
	}
	lifts := func(cmd string) string {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		return Lifts(Call{Root: w.root, Cwd: w.root, Transcript: w.transcript, StateRoot: filepath.Join(w.home, ".claude", "context-budget"),
			Witness: witness, ToolName: "Bash", ToolInput: json.RawMessage(in), Getenv: w.e.get})
	}
	for class, cmds := range map[string][]string{
		"a parameter with a default": {
			`rm -rf "${CLAUDE_CONFIG_DIR:-$HOME/.claude}/context-budget"`,
			`rm -rf "${NOPE:-$HOME/.claude}/context-budget"`,
			`rm -rf "${NOPE-$HOME/.claude}/context-budget"`,
			`rm -rf "${NOPE:=~/.claude}/context-budget"`,
			`rm -rf ${NOPE:-${HOME}/.claude/context-budget}`,
			`C=${CLAUDE_CONFIG_DIR:-~/.claude}; rm -rf "$C/context-budget"`,
			`rm -rf "${HOME:+$HOME/.claude}/context-budget"`,
		},
		"a process's folders in /proc": {
			"rm -rf /proc/self/cwd/../../home/.claude/context-budget",
			"rm -rf /proc/thread-self/cwd/../../home/.claude/context-budget",
			"rm -rf /proc/$$/cwd/../../home/.claude/context-budget",
			"rm -rf /proc/self/root" + w.home + "/.claude/context-budget",
			"rm -rf /proc/$$/root" + w.home + "/.claude/context-budget",
			"rm -rf /proc/1/root" + w.home + "/.claude/context-budget",
			"rm -rf ~+/../../home/.claude/context-budget",
		},
		"cd - and cd to an absolute folder after it": {
			"cd - >/dev/null; cd ~/.claude && rm -rf context-budget",
			"cd /tmp && cd - && cd ~/.claude && rm -rf context-budget",
			"cd ~/.claude && cd /tmp && cd - && rm -rf context-budget",
			"cd $UNKNOWN; cd " + w.home + "/.claude; rm -rf context-budget",
		},
		"interpreter code joining the environment": {
			`python3 -c "import shutil,os; shutil.rmtree(os.environ['CLAUDE_CONFIG_DIR']+'/context-budget')"`,
			`python3 -c "import shutil,os; shutil.rmtree(os.getenv('CLAUDE_CONFIG_DIR') + '/context-budget')"`,
			`python3 -c "import shutil,os; shutil.rmtree(os.path.join(os.environ['CLAUDE_CONFIG_DIR'], 'context-budget'))"`,
			`node -e "require('fs').rmSync(process.env.CLAUDE_CONFIG_DIR+'/context-budget',{recursive:true})"`,
			`node -e "require('fs').rmSync(process.env.HOME+'/.claude/context-budget',{recursive:true})"`,
			`ruby -e 'require "fileutils"; FileUtils.rm_rf(ENV["CLAUDE_CONFIG_DIR"] + "/context-budget")'`,
			`perl -e 'use File::Path; rmtree("$ENV{CLAUDE_CONFIG_DIR}/context-budget")'`,
			`python3 -c "import shutil,os; shutil.rmtree(os.environ['XDG_STATE_HOME']+'/context-budget')"`,
		},
		"code walking for the fuse's own files": {
			`python3 -c "import os; [os.remove(os.path.join(d,f)) for d,_,fs in os.walk(os.path.expanduser('~')) for f in fs if f.endswith('.fuse')]"`,
			`python3 -c "import glob,os; [os.remove(p) for p in glob.glob('/**/*.spend', recursive=True)]"`,
			`node -e "for (const f of require('fs').readdirSync('.', {recursive:true})) if (f.endsWith('.witness')) require('fs').rmSync(f)"`,
		},
		"programs that remove their sources": {
			"tar -cf /tmp/x.tar --remove-files -C ~/.claude context-budget",
			"tar --remove-files -cf /tmp/x.tar --directory=" + w.home + "/.claude context-budget",
			"rsync -a --remove-source-files ~/.claude/context-budget/ /tmp/cbk/",
		},
		"brace expansion": {
			"rm -rf ~/.claude/{context-budget,x}",
			"rm -rf ~/.{claude,x}/context-budget",
			"rm -rf ~/.{x,claude}/{y,context-budget}",
			"rm -rf ~/{a,.c{x,laude}}/context-budget",
		},
		"the witness's folder": {
			"rm -rf ~/.local/state/context-budget",
			"rm -rf ~/.local/state",
			"mv ~/.local/state/context-budget /tmp/x",
			`rm -rf "${XDG_STATE_HOME:-$HOME/.local/state}/context-budget"`,
		},
	} {
		for _, cmd := range cmds {
			if why := lifts(cmd); why == "" {
				t.Errorf("%s: %q passes", class, cmd)
			}
		}
	}
	for _, cmd := range []string{
		`rm -rf "${TMPDIR:-/tmp}/build"`,
		`echo "${NAME:-world}"`,
		"cd - && ls",
		"cd /tmp && cd - && rm -rf build",
		"ls /proc/self/cwd/src",
		"cat /proc/self/status",
		`python3 -c "import os; print(os.environ['HOME'])"`,
		`python3 -c "import os; [os.remove(f) for f in os.listdir('.') if f.endswith('.pyc')]"`,
		`node -e "console.log(process.env.CLAUDE_CONFIG_DIR)"`,
		"rm -rf ~/.local/share/build",
		"rm -rf build/{a,b}",
		"echo {a,b}",
		"tar -cf /tmp/x.tar --remove-files -C /tmp build",
		"rsync -a --remove-source-files out/ /tmp/keep/",
	} {
		if why := lifts(cmd); why != "" {
			t.Errorf("ordinary work %q is denied: %s", cmd, why)
		}
	}
}

// TestStateSuffixes: the guard's list of the fuse's suffixes names a
// session's files only.
func TestStateSuffixes(t *testing.T) {
	for _, s := range StateSuffixes {
		if !strings.HasPrefix(s, ".") || strings.Count(s, ".") != 1 {
			t.Errorf("%q is not one suffix", s)
		}
	}
}
