package settings

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Role is one registration this program makes: a hook on an event, or the
// status line, each running the binary with fixed arguments.
type Role struct {
	// Event is the hook event, or "statusLine" for the status line.
	Event string
	// Args are the arguments after the binary, e.g. "ledger record".
	Args string
	// Matcher is the matcher a new group gets; "" leaves it out, as for
	// events without matcher support.
	Matcher string
}

// StatusLineKey is the settings key of the status line.
const StatusLineKey = "statusLine"

// The registrations install makes.
var (
	PostToolUse = Role{Event: "PostToolUse", Args: "hook", Matcher: "*"}
	Stop        = Role{Event: "Stop", Args: "ledger record"}
	StatusLine  = Role{Event: StatusLineKey, Args: "statusline"}
	// UserPromptSubmit and SessionStart run the hook for the cold cache
	// (design §14): the prompt is where a re-write is decided, and a
	// resumed start says how old the cache is.
	UserPromptSubmit = Role{Event: "UserPromptSubmit", Args: "hook"}
	SessionStart     = Role{Event: "SessionStart", Args: "hook"}
	// The spend fuse's: it denies tool calls and ends the run at a stop,
	// a subagent's too. Its Stop answer is a registration of its own,
	// apart from the ledger's, so that the ledger's wait for the final
	// message never delays it and either can fail alone.
	PreToolUse   = Role{Event: "PreToolUse", Args: "hook", Matcher: "*"}
	StopFuse     = Role{Event: "Stop", Args: "hook"}
	SubagentStop = Role{Event: "SubagentStop", Args: "hook"}
	// Roles lists them in the order install adds them.
	Roles = []Role{PostToolUse, Stop, StatusLine, PreToolUse, StopFuse, SubagentStop, UserPromptSubmit, SessionStart}
)

// Name is the binary's name; a command whose program has this base name is
// ours, wherever it lives.
const Name = "context-budget"

// ErrForeignStatusLine reports a status line that is someone else's, which
// install will not replace.
var ErrForeignStatusLine = errors.New("the settings already have a statusLine of their own")

// ShapeError reports a settings file whose hooks are not shaped as Claude
// Code documents them; install leaves such a file alone.
type ShapeError struct{ Path, Want string }

func (e *ShapeError) Error() string {
	return fmt.Sprintf("%s is not %s", e.Path, e.Want)
}

// Command returns the command line for r with the binary at exe, quoted
// for sh only when the path needs it.
func Command(exe string, r Role) string {
	return shellQuote(exe) + " " + r.Args
}

func shellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_/.,:@%+=-", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Ours reports whether a handler's command (and exec-form args, if any)
// runs this program in role r, and returns the program path it names.
func Ours(command string, args []string, r Role) (exe string, ok bool) {
	words := splitWords(command)
	if len(words) == 0 {
		return "", false
	}
	words = append(words, args...)
	base := strings.TrimSuffix(filepath.Base(filepath.ToSlash(words[0])), ".exe")
	if base != Name || strings.Join(words[1:], " ") != r.Args {
		return "", false
	}
	return words[0], true
}

// splitWords splits a command line into words the way sh would for the
// simple commands we recognise: blanks separate, single and double quotes
// group, a backslash escapes the next character.
func splitWords(s string) []string {
	var words []string
	var w strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		case c == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				w.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			in = true
			i++
			w.WriteByte(s[i])
		default:
			in = true
			w.WriteByte(c)
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// Entry is one registration of ours found in a settings file.
type Entry struct {
	Role    Role
	Command string
	// Exe is the program path the command names.
	Exe string
}

// handlerOf returns a handler's command and, when the handler runs this
// program in role r, the program path its command (and exec-form args)
// names.
func handlerOf(h *Object, r Role) (command, exe string, ours bool) {
	cv, _ := h.Get("command")
	command, _ = cv.(string)
	av, _ := h.Get("args")
	var args []string
	if list, ok := av.([]any); ok {
		for _, a := range list {
			s, _ := a.(string)
			args = append(args, s)
		}
	}
	exe, ours = Ours(command, args, r)
	return command, exe, ours
}

// ourStatusLine returns the status line's handler when it is ours.
func ourStatusLine(o *Object) (h *Object, command, exe string, ours bool) {
	sl, _ := o.Get(StatusLineKey)
	if h, ok := sl.(*Object); ok {
		command, exe, ours = handlerOf(h, StatusLine)
		return h, command, exe, ours
	}
	return nil, "", "", false
}

// Registered returns the registrations of ours in o, in file order per
// role.
func Registered(o *Object) ([]Entry, error) {
	var out []Entry
	for _, r := range Roles {
		if r == StatusLine {
			if _, command, exe, ok := ourStatusLine(o); ok {
				out = append(out, Entry{r, command, exe})
			}
			continue
		}
		err := eachOurs(o, r, func(_ *Object, command, exe string) bool {
			out = append(out, Entry{r, command, exe})
			return false
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
