package settings

import (
	"os"
	"path/filepath"
	"testing"
)

func TestEnvPrecedence(t *testing.T) {
	cfg, root := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"env":{"A":"user","B":"user","C":"user","N":5}}`), 0o644)
	os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(`{"env":{"B":"project","C":"project"}}`), 0o644)
	os.WriteFile(filepath.Join(root, ".claude", "settings.local.json"), []byte(`{"env":{"C":"local","D":""}}`), 0o644)
	shell := map[string]string{"A": "shell", "D": "shell", "E": "shell"}
	env, used := Env(func(k string) string { return shell[k] }, cfg, root)
	for k, want := range map[string]string{"A": "user", "B": "project", "C": "local", "D": "", "E": "shell", "N": "5"} {
		if got := env(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if len(used) != 3 {
		t.Errorf("used %v", used)
	}
	// A broken file is skipped.
	os.WriteFile(filepath.Join(root, ".claude", "settings.local.json"), []byte(`{"env":`), 0o644)
	env, _ = Env(func(k string) string { return shell[k] }, cfg, root)
	if env("C") != "project" {
		t.Errorf("C = %q with a broken local file", env("C"))
	}
}

func FuzzReadEnv(f *testing.F) {
	f.Add([]byte(`{"env":{"A":"x","B":1,"C":true,"D":null,"E":{}}}`))
	f.Add([]byte(`{"env":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		name := filepath.Join(t.TempDir(), "s.json")
		os.WriteFile(name, data, 0o644)
		readEnv(name)
	})
}
