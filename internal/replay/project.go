package replay

import (
	"path/filepath"
	"strings"
)

// HomePath is a project's folder as a person reads it: under home, from
// ~ ("~/shop"); anything else as it is.
func HomePath(project, home string) string {
	if home == "" || !filepath.IsAbs(project) {
		return project
	}
	if project == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(project, strings.TrimSuffix(home, string(filepath.Separator))+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return project
}
