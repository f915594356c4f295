package state

import (
	"strings"
	"testing"
)

// TestFileNames: the kinds of file are distinct, a session's file names
// its session by what comes before the first dot, and no id names a
// file of the folder's own (a PlainName has no dot).
func TestFileNames(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Files() {
		if seen[f.Name] {
			t.Errorf("%s is listed twice", f.Name)
		}
		seen[f.Name] = true
		if f.Writer == "" || f.What == "" {
			t.Errorf("%s: no writer or no words: %+v", f.Name, f)
		}
		if !strings.HasPrefix(f.Name, SessionID) {
			if PlainName(f.Name) {
				t.Errorf("%s: the folder's own file is also a session id", f.Name)
			}
			continue
		}
		id := "4d5611e5-241a-462a-8d15-5122611a9569"
		name := strings.ReplaceAll(strings.ReplaceAll(f.Name, SessionID, id), AgentID, "a1")
		owner, _, _ := strings.Cut(name, ".")
		if strings.HasPrefix(f.Name, SessionID+"-"+AgentID) {
			id += "-a1" // a subagent's files: see the names' comment
		}
		if owner != id || !PlainName(owner) {
			t.Errorf("%s: %q names session %q, want %q", f.Name, name, owner, id)
		}
	}
	// Every name above is listed.
	for _, name := range []string{Gitignore, LedgerMean, Compactions} {
		if !seen[name] {
			t.Errorf("%s is not in Files", name)
		}
	}
	for _, suffix := range []string{"", LockSuffix, LineSuffix, WindowSuffix, OperatorSuffix, OperatorSuffix + LockSuffix,
		OrientationSuffix, OrientationSearchSuffix, ColdSuffix, ResumeSuffix, CallsSuffix} {
		if !seen[SessionID+suffix] {
			t.Errorf("%s%s is not in Files", SessionID, suffix)
		}
	}
}
