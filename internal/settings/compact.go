package settings

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
)

// MinCompactWindow is the least window Claude Code takes from
// autoCompactWindow: its schema wants a whole number of tokens, at least
// 100000, or "auto"; anything else is dropped.
const MinCompactWindow = 100_000

// CompactWindow is the auto-compact window Claude Code's settings files
// set for a model (design §4.1), as the pinned CLI 2.1.332 resolves it:
// the files are read from the lowest precedence up (EnvFiles); within a
// file a modelSettings.<model>.autoCompactWindow replaces the file's
// top-level autoCompactWindow for that model; a later file's per-model
// value adds to the earlier ones, and a later file's top-level value
// replaces them all. A value the schema drops (under MinCompactWindow,
// not a whole number) sets nothing; "auto" leaves the model's own window:
// 0. file names the file the value came from.
//
// A model key matches the served model id with its date, a [1m] suffix and
// case set aside ("claude-opus-4-6" matches "claude-opus-4-6-20260101"
// and "claude-opus-4-6[1m]"); Claude Code's aliases ("opus") are not
// resolved.
func CompactWindow(configDir, root, model string) (tokens int64, file string) {
	top, byModel := compactWindows(configDir, root)
	if v, ok := byModel[CanonicalModel(model)]; ok {
		return v.tokens, v.file
	}
	if top != nil {
		return top.tokens, top.file
	}
	return 0, ""
}

// CompactWindows is every autoCompactWindow the settings files set, as
// CompactWindow resolves them: the top-level one (set false when none)
// and each model's, by canonical model id ("auto" is 0).
func CompactWindows(configDir, root string) (top int64, set bool, byModel map[string]int64) {
	t, m := compactWindows(configDir, root)
	byModel = map[string]int64{}
	for k, v := range m {
		byModel[k] = v.tokens
	}
	if t != nil {
		return t.tokens, true, byModel
	}
	return 0, false, byModel
}

// compactValue is one autoCompactWindow and the file it came from.
type compactValue struct {
	tokens int64
	file   string
}

func compactWindows(configDir, root string) (top *compactValue, byModel map[string]compactValue) {
	byModel = map[string]compactValue{}
	for _, name := range EnvFiles(configDir, root) {
		data, err := reading.ReadFile(name, reading.MaxSettings)
		if err != nil {
			continue
		}
		var f struct {
			Top    json.RawMessage `json:"autoCompactWindow"`
			Models map[string]struct {
				Window json.RawMessage `json:"autoCompactWindow"`
			} `json:"modelSettings"`
		}
		if json.Unmarshal(data, &f) != nil {
			// A file Claude Code cannot read sets nothing.
			continue
		}
		mine := map[string]compactValue{}
		for k, m := range f.Models {
			c := CanonicalModel(k)
			// The canonical key wins over another spelling of it in the
			// same file.
			if _, ok := mine[c]; ok && k != c {
				continue
			}
			if n, ok := windowValue(m.Window, true); ok {
				mine[c] = compactValue{n, name}
			}
		}
		if n, ok := windowValue(f.Top, false); ok {
			top = &compactValue{n, name}
			byModel = mine
			continue
		}
		for k, v := range mine {
			byModel[k] = v
		}
	}
	return top, byModel
}

// windowValue reads one autoCompactWindow value: its tokens, or 0 for
// "auto" where the schema takes it (per model). ok is false for a value
// the schema drops, which sets nothing: absent, under MinCompactWindow,
// not a whole number.
func windowValue(raw json.RawMessage, auto bool) (tokens int64, ok bool) {
	var s string
	if auto && json.Unmarshal(raw, &s) == nil && s == "auto" {
		return 0, true
	}
	var n int64
	if raw == nil || json.Unmarshal(raw, &n) != nil || n < MinCompactWindow {
		return 0, false
	}
	return n, true
}

// dated is a model id's date suffix.
var dated = regexp.MustCompile(`-\d{8}$`)

// CanonicalModel is a model id as settings keys match it: lower case,
// without a [1m] suffix or a -YYYYMMDD date.
func CanonicalModel(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	m = strings.TrimSuffix(m, "[1m]")
	return dated.ReplaceAllString(m, "")
}
