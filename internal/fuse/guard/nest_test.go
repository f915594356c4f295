package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// nestWorld is a guard world where Claude Code's program is installed as
// npm lays it out, named by CLAUDE_CODE_EXECPATH, with CLAUDE_CONFIG_DIR
// set and the session's id known to the hook only.
func nestWorld(t testing.TB) (guardWorld, string) {
	w := newGuardWorld(t)
	exe := filepath.Join(w.home, ".cache", "context-budget", "claude-code", "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.e["CLAUDE_CODE_EXECPATH"] = exe
	w.e["CLAUDE_CONFIG_DIR"] = filepath.Join(w.home, ".claude")
	return w, exe
}

// TestNestedByAnotherName: a nested session by a second name for Claude
// Code's program (a copy, a link, a move), by an expansion of
// CLAUDE_CODE_EXECPATH however changed, or by what find finds, is
// denied; so is a write to the session's transcript through a pattern or
// a variable the guard cannot expand. The red team's strings first.
func TestNestedByAnotherName(t *testing.T) {
	w, exe := nestWorld(t)
	cache := filepath.Join(w.home, ".cache", "context-budget")
	deny := []string{
		// The red team's (cases nest2, forge2).
		`cp "$CLAUDE_CODE_EXECPATH" /tmp/rt-run/cc && cd /tmp && CLAUDE_CONFIG_DIR=/tmp/rt-run/o2 /tmp/rt-run/cc -p 'NESTED copy' --model claude-opus-4-6 </dev/null`,
		`cd /tmp && CLAUDE_CONFIG_DIR=/tmp/rt-run/o2 find ` + cache + ` -name claude.exe -exec {} -p 'NESTED find' --model claude-opus-4-6 \; </dev/null`,
		`cd /tmp && CLAUDE_CONFIG_DIR=/tmp/rt-run/o2 "${CLAUDE_CODE_EXECPATH%.exe}.exe" -p 'NESTED param' --model claude-opus-4-6 </dev/null`,
		`truncate -s0 "$CLAUDE_CONFIG_DIR"/projects/*/"$CLAUDE_CODE_SESSION_ID".jsonl`,
		// a. A second name.
		`cp "$CLAUDE_CODE_EXECPATH" /tmp/cc`,
		`cp ` + exe + ` ./cc`,
		`cp -r ` + cache + `/claude-code /tmp/cc`,
		`ln -s "$CLAUDE_CODE_EXECPATH" ~/bin/helper`,
		`ln "$CLAUDE_CODE_EXECPATH"`,
		`mv ~/.local/bin/claude /tmp/x`,
		`install -m755 /usr/local/bin/claude /tmp/agent`,
		`rsync -a ~/.local/share/claude/versions/2.1.332 /tmp/agent`,
		`cp /proc/self/exe /tmp/x`,
		`cp /proc/$PPID/exe /tmp/x`,
		`dd if="$CLAUDE_CODE_EXECPATH" of=/tmp/cc`,
		`cat "$CLAUDE_CODE_EXECPATH" > /tmp/cc && chmod +x /tmp/cc`,
		`X=$CLAUDE_CODE_EXECPATH; cp "$X" /tmp/cc`,
		`cp "${CLAUDE_CODE_EXECPATH%/*}/claude.exe" /tmp/cc`,
		`bash -c 'cp "$CLAUDE_CODE_EXECPATH" /tmp/cc'`,
		// b. Any expansion of CLAUDE_CODE_EXECPATH as the program.
		`"${CLAUDE_CODE_EXECPATH/claude/claude}" -p go`,
		`"${CLAUDE_CODE_EXECPATH:0:200}" -p go`,
		`"${CLAUDE_CODE_EXECPATH}" -p go`,
		`"$CLAUDE_CODE_EXECPATH".x -p go`,
		`X="${CLAUDE_CODE_EXECPATH%.exe}"; "$X.exe" -p go`,
		`node "${CLAUDE_CODE_EXECPATH%/bin/*}/cli.js" -p go`,
		`sh -c '"${CLAUDE_CODE_EXECPATH%.exe}.exe" -p go'`,
		// c. What find finds, run.
		`find / -name 'claude*' -exec {} -p go \;`,
		`find ~ -iname CLAUDE.EXE -execdir {} -p go \;`,
		`find ~/.local -path '*/claude/versions/*' -exec {} -p go \;`,
		`find ` + cache + ` -name cli.js -path '*claude-code*' -exec node {} -p go \;`,
		`find ` + cache + ` -name claude.exe -exec cp {} /tmp/cc \;`,
		// d. The transcript through a pattern or an unknown variable.
		`truncate -s0 "$CLAUDE_CONFIG_DIR"/projects/*/"$SID".jsonl`,
		`: > "$CLAUDE_CONFIG_DIR/projects/$P/$CLAUDE_CODE_SESSION_ID.jsonl"`,
		`rm -rf "$HOME/.claude/projects/$P"`,
		`bash -c "truncate -s0 $HOME/.claude/projects/$P/$S.jsonl"`,
	}
	for _, cmd := range deny {
		if why := w.bash(cmd); why == "" {
			t.Errorf("%q was allowed", cmd)
		}
	}
	// The hook's session id stands for CLAUDE_CODE_SESSION_ID: the
	// session's own transcript by its id, another's left alone.
	dir := filepath.Dir(w.transcript)
	if why := w.bash(`cd ` + dir + ` && : > "$CLAUDE_CODE_SESSION_ID.jsonl"`); why == "" {
		t.Errorf("a write to an unknown .jsonl in the transcripts' folder was allowed")
	}
	own := `cd ` + dir + ` && rm -rf "$CLAUDE_CODE_SESSION_ID"`
	if why := w.bash(own); why != "" {
		t.Errorf("without the session's id, %q was denied: %s", own, why)
	}
	if why := Lifts(Call{Root: w.root, Cwd: w.root, Transcript: w.transcript, StateRoot: filepath.Join(w.home, ".claude", "context-budget"),
		Session: "sess", ToolName: "Bash", ToolInput: bashInput(own), Getenv: w.e.get}); why == "" {
		t.Errorf("with the session's id, %q was allowed", own)
	}
	w.e["CLAUDE_CONFIG_DIR"] = ""
	w.e["CLAUDE_PROJECT_DIR"] = w.root
	allow := []string{
		`cp README.md /tmp/x`,
		`find . -name '*.go' -exec gofmt -l {} +`,
		`find . -name '*.tmp' -exec rm {} \;`,
		`truncate -s0 build/log.txt`,
		`"$CLAUDE_CODE_EXECPATH" --version`,
		`ls -l "$CLAUDE_CODE_EXECPATH"`,
		`echo "${CLAUDE_CODE_EXECPATH%/*}"`,
		`cp src/claude.md /tmp/`,
		`rm -rf "$CLAUDE_PROJECT_DIR/build/$X"`,
		`rm -rf /var/cache/$X`,
		`echo x > "$HOME/.cache/$X/out"`,
		`cp -r "$CLAUDE_PROJECT_DIR/src" /tmp/copy`,
		`find . -name main.go -exec cat {} \;`,
	}
	for _, cmd := range allow {
		if why := w.bash(cmd); why != "" {
			t.Errorf("%q was denied: %s", cmd, why)
		}
	}
}

func bashInput(cmd string) json.RawMessage {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return in
}

// FuzzNestedNames: the fuzzer picks a nested session by another name
// and a way to run it (a wrapper, a shell's -c, a substitution), and adds
// what it likes after it: the guard denies every one.
func FuzzNestedNames(f *testing.F) {
	spellings := []string{`cp "$CLAUDE_CODE_EXECPATH" /tmp/cc`, `ln -s "$CLAUDE_CODE_EXECPATH" /tmp/cc`, `mv ~/.local/bin/claude /tmp/cc`,
		`"${CLAUDE_CODE_EXECPATH%.exe}.exe" -p go`, `"${CLAUDE_CODE_EXECPATH:0:900}" -p go`, `"${CLAUDE_CODE_EXECPATH/x/y}" -p go`,
		`find ~ -name claude.exe -exec {} -p go \;`, `find ~ -name 'claude.e*' -exec {} -p go +`,
		`truncate -s0 "$CLAUDE_CONFIG_DIR"/projects/*/"$CLAUDE_CODE_SESSION_ID".jsonl`,
		`truncate -s0 "$CLAUDE_CONFIG_DIR/projects/$P/$S.jsonl"`}
	ways := []string{"%s", "nice %s", "timeout 5 %s", "bash -c %q", "env -i PATH=/usr/bin %s", "cd /tmp && %s", "echo start; %s",
		"{ %s; }", "x=$( %s )", "sh -c %q &", "eval %q"}
	f.Add(uint8(3), uint8(3), "; ls")
	w, _ := nestWorld(f)
	fuzzDenied(f, w, spellings, ways)
}
