package settings

import (
	"encoding/json"
	"path/filepath"
	"runtime"

	"github.com/muthur/context-budget/internal/reading"
)

// EnvFiles are the settings files whose env blocks Claude Code applies to
// a session of the project at root, lowest precedence first: the user's,
// the project's, the project's local one (docs: managed > CLI --settings >
// local > project > user; managed policy and --settings are not files
// this program can know of a past session, and are left out).
func EnvFiles(configDir, root string) []string {
	files := []string{filepath.Join(configDir, "settings.json")}
	if root != "" {
		files = append(files, filepath.Join(root, ".claude", "settings.json"),
			filepath.Join(root, ".claude", "settings.local.json"))
	}
	return files
}

// Env returns the environment a hook of the project at root sees: the
// variables of the settings files' env blocks, in Claude Code's
// precedence, over getenv (an env value overrides the shell's; "" unsets
// it). used lists the files that had an env block. A file that is missing
// or does not parse is skipped, as Claude Code would not apply it either.
func Env(getenv func(string) string, configDir, root string) (env func(string) string, used []string) {
	merged, used := EnvOf(EnvFiles(configDir, root)...)
	if len(merged) == 0 {
		return getenv, used
	}
	return func(k string) string {
		if v, ok := merged[k]; ok {
			return v
		}
		return getenv(k)
	}, used
}

// FileEnv reads the env block of one settings file; ok is false when the
// file is missing, does not parse or has none.
func FileEnv(name string) (env map[string]string, ok bool) { return readEnv(name) }

// ManagedFile is Claude Code's managed settings file (managed policy),
// where an organisation's IT sets what a user cannot override. Tests
// point it elsewhere.
var ManagedFile = func() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	case "windows":
		return `C:\Program Files\ClaudeCode\managed-settings.json`
	}
	return "/etc/claude-code/managed-settings.json"
}

// EnvOf merges the env blocks of files, later files over earlier ones;
// a file that is missing, does not parse or has no env block adds
// nothing. used lists the files that had one.
func EnvOf(files ...string) (merged map[string]string, used []string) {
	merged = map[string]string{}
	for _, name := range files {
		vars, ok := readEnv(name)
		if !ok {
			continue
		}
		used = append(used, name)
		for k, v := range vars {
			merged[k] = v
		}
	}
	return merged, used
}

// readEnv reads one file's env block; values that are numbers or booleans
// are taken as their JSON text.
func readEnv(name string) (map[string]string, bool) {
	data, err := reading.ReadFile(name, reading.MaxSettings)
	if err != nil {
		return nil, false
	}
	var f struct {
		Env map[string]json.RawMessage `json:"env"`
	}
	if json.Unmarshal(data, &f) != nil || len(f.Env) == 0 {
		return nil, false
	}
	out := make(map[string]string, len(f.Env))
	for k, raw := range f.Env {
		var s string
		switch {
		case json.Unmarshal(raw, &s) == nil:
		case len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
			s = string(raw)
		case string(raw) == "true" || string(raw) == "false":
			s = string(raw)
		default:
			continue
		}
		out[k] = s
	}
	return out, true
}
