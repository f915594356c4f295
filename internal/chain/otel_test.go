package chain

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/tuning"
)

// TestStampTelemetry: a session's OTEL_RESOURCE_ATTRIBUTES names the
// chain, its place, the repository and the branch after the user's own;
// where a settings file or the user's --settings sets the variable, the
// merged value goes in the one --settings the runner builds, beside the
// pinned caps; where the managed settings set it, nothing changes.
func TestStampTelemetry(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	dir, home := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "feat/a,b"}, {"remote", "add", "origin", "git@github.com:team/widget.git"},
		{"-c", "user.name=a", "-c", "user.email=a@x", "commit", "-q", "--allow-empty", "-m", "x"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	old := settings.ManagedFile
	managed := filepath.Join(t.TempDir(), "managed-settings.json")
	settings.ManagedFile = func() string { return managed }
	t.Cleanup(func() { settings.ManagedFile = old })

	r := &runner{cfg: Config{Dir: dir}, env: []string{"HOME=" + home, "OTEL_RESOURCE_ATTRIBUTES=team=core,vcs.repository.name=mine"}}
	r.sum.Chain = "c-1"
	const ours = "context_budget.chain.id=c-1,context_budget.chain.place=2,vcs.ref.head.name=feat%2Fa%2Cb"
	const fromFiles = "context_budget.chain.id=c-1,context_budget.chain.place=2,vcs.repository.name=widget,vcs.ref.head.name=feat%2Fa%2Cb"
	// session stamps session 2 under args and caps, and returns its
	// environment's values of the variable and its claude arguments.
	session := func(args []string, caps map[string]string) (values, argv []string) {
		t.Helper()
		c, err := parseArgs(dir, args)
		if err != nil {
			t.Fatal(err)
		}
		s := &Session{Place: 2}
		r.stampTelemetry(s, c, caps)
		for _, kv := range r.sessionEnv(s, caps) {
			if v, ok := strings.CutPrefix(kv, "OTEL_RESOURCE_ATTRIBUTES="); ok {
				values = append(values, v)
			}
		}
		return values, c.with(caps)
	}
	// settingsOf is the env of the one --settings in argv.
	settingsOf := func(argv []string) map[string]string {
		t.Helper()
		var env map[string]string
		for i, a := range argv {
			if a != flagSettings {
				continue
			}
			if env != nil {
				t.Errorf("a second --settings: %q", argv)
			}
			var m struct{ Env map[string]string }
			if err := json.Unmarshal([]byte(argv[i+1]), &m); err != nil {
				t.Fatal(err)
			}
			env = m.Env
		}
		return env
	}

	values, argv := session(nil, map[string]string{})
	if !slices.Equal(values, []string{"team=core,vcs.repository.name=mine," + ours}) || len(settingsOf(argv)) > 0 {
		t.Errorf("from the environment: %q, args %q", values, argv)
	}

	write := func(name, value string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(name), 0o755)
		data, _ := json.Marshal(map[string]any{"env": map[string]string{"OTEL_RESOURCE_ATTRIBUTES": value}})
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".claude", "settings.json"), "team=user")
	write(filepath.Join(dir, ".claude", "settings.local.json"), "team=local")
	caps := map[string]string{tuning.EnvSpend: "$1.0000"}
	values, argv = session(nil, caps)
	if want := "team=local," + fromFiles; !slices.Equal(values, []string{want}) ||
		!maps.Equal(settingsOf(argv), map[string]string{"OTEL_RESOURCE_ATTRIBUTES": want, tuning.EnvSpend: "$1.0000"}) {
		t.Errorf("from the local settings: %q, args %q", values, argv)
	}

	// The user's own --settings wins over the files, and is merged with
	// the stamp and the caps into one.
	values, argv = session([]string{`--settings={"model":"m","env":{"OTEL_RESOURCE_ATTRIBUTES":"team=flag"}}`}, map[string]string{tuning.EnvSpend: "$1.0000"})
	if want := "team=flag," + fromFiles; !slices.Equal(values, []string{want}) ||
		!maps.Equal(settingsOf(argv), map[string]string{"OTEL_RESOURCE_ATTRIBUTES": want, tuning.EnvSpend: "$1.0000"}) {
		t.Errorf("from the user's --settings: %q, args %q", values, argv)
	}

	write(managed, "team=it")
	values, argv = session(nil, map[string]string{})
	if !slices.Equal(values, []string{"team=core,vcs.repository.name=mine"}) || len(settingsOf(argv)) > 0 {
		t.Errorf("under the managed settings' value: %q, %q", values, argv)
	}
}
