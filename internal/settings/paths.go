package settings

import (
	"fmt"
	"path/filepath"
	"slices"
)

// Scope is which settings file install edits.
type Scope string

// The scopes, as Claude Code names them.
const (
	User    Scope = "user"
	Project Scope = "project"
	Local   Scope = "local"
)

// Scopes lists them from the widest to the narrowest, the order of
// precedence from lowest to highest.
var Scopes = []Scope{User, Project, Local}

// ParseScope reads a --scope value.
func ParseScope(s string) (Scope, error) {
	if sc := Scope(s); slices.Contains(Scopes, sc) {
		return sc, nil
	}
	return "", fmt.Errorf("unknown scope %q (want user, project or local)", s)
}

// ConfigDir is Claude Code's configuration folder: $CLAUDE_CONFIG_DIR when
// set, as Claude Code itself honours it, else ~/.claude.
func ConfigDir(getenv func(string) string, home string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(home, ".claude")
}

// File returns the settings file of a scope: <config>/settings.json for
// user, <root>/.claude/settings.json for project and
// <root>/.claude/settings.local.json for local.
func File(sc Scope, configDir, root string) string {
	switch sc {
	case Project:
		return filepath.Join(root, ".claude", "settings.json")
	case Local:
		return filepath.Join(root, ".claude", "settings.local.json")
	}
	return filepath.Join(configDir, "settings.json")
}

// SkillsDir returns where a scope's skills live. Claude Code has no
// personal-per-project skills folder, so local shares the project's.
func SkillsDir(sc Scope, configDir, root string) string {
	if sc == User {
		return filepath.Join(configDir, "skills")
	}
	return filepath.Join(root, ".claude", "skills")
}

// ProjectSlug is the folder name Claude Code gives a project under
// <config>/projects: the absolute path with every character other than
// an ASCII letter or digit replaced by "-" (no collapsing of runs).
// Claude Code truncates names past 200 characters and appends a hash;
// that case is not reproduced here.
func ProjectSlug(path string) string {
	b := make([]byte, 0, len(path))
	for _, c := range path {
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b = append(b, byte(c))
			continue
		}
		// Claude Code replaces per UTF-16 unit: a character outside the
		// basic plane is two dashes.
		b = append(b, '-')
		if c > 0xFFFF {
			b = append(b, '-')
		}
	}
	return string(b)
}
