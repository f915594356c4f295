// Package skills carries the skills the notices point the agent at
// (design §9), one folder per skill holding its SKILL.md, embedded so that
// install can copy them into .claude/skills/ without the source tree.
package skills

import (
	"embed"
	"io/fs"
	"path"
)

//go:embed */SKILL.md
var files embed.FS

// Skill is one skill: the folder name Claude Code invokes it by, and its
// SKILL.md.
type Skill struct {
	Name    string
	Content []byte
}

// All returns the embedded skills, ordered by name.
func All() []Skill {
	names, _ := fs.Glob(files, "*/SKILL.md")
	var out []Skill
	for _, n := range names {
		data, err := files.ReadFile(n)
		if err != nil {
			continue
		}
		out = append(out, Skill{Name: path.Dir(n), Content: data})
	}
	return out
}
