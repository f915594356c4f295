package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// Dir is the folder of a project's rows: <root>/.claude/costs/sessions.
func Dir(root string) string {
	return filepath.Join(root, ".claude", "costs", "sessions")
}

// ErrNotRow reports JSON that is not a session row: not an object, or an
// object without a sessionId.
var ErrNotRow = errors.New("not a ledger row")

// A ParseError is returned for a file that is not a row.
type ParseError struct {
	// Path is the file's name.
	Path string
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }

func (e *ParseError) Unwrap() error { return e.Err }

// Parse decodes one row. Fields it does not know are ignored; fields a
// row predates are left zero. A row whose figures fail Check is refused
// with an error wrapping ErrRange.
func Parse(data []byte) (Row, error) {
	var r Row
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return Row{}, ErrNotRow
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return Row{}, err
	}
	if r.SessionID == "" {
		return Row{}, ErrNotRow
	}
	if err := r.Check(); err != nil {
		return Row{}, err
	}
	return r, nil
}

// Reader reads the rows of a ledger folder, one file at a time, in the
// order of their names (month, then session id).
//
// A file that is not a row is skipped: Read moves on to the next one and
// counts it in Skipped, with its error in Errors. A ledger is shared by a
// team; one bad file must not hide the others.
type Reader struct {
	files []string
	next  int
	// Skipped counts the files that were not rows.
	Skipped int
	// Errors holds a *ParseError for each skipped file.
	Errors []error
}

// NewReader returns a Reader of the rows under dir (see Dir): every
// <dir>/*/*.json. A missing folder is an empty ledger.
func NewReader(dir string) (*Reader, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	// Temporary files of a write in progress start with a dot and do not
	// end in .json; Glob does not list them, but say so here too.
	kept := files[:0]
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(f), ".") {
			kept = append(kept, f)
		}
	}
	sort.Strings(kept)
	return &Reader{files: kept}, nil
}

// Read returns the next row, or io.EOF when there are no more.
func (r *Reader) Read() (Row, error) {
	for r.next < len(r.files) {
		name := r.files[r.next]
		r.next++
		row, err := readFile(name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed since the listing: not a bad row
			}
			r.Skipped++
			r.Errors = append(r.Errors, &ParseError{Path: name, Err: err})
			continue
		}
		return row, nil
	}
	return Row{}, io.EOF
}

// ReadAll reads every remaining row.
func (r *Reader) ReadAll() ([]Row, error) {
	var rows []Row
	for {
		row, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		rows = append(rows, row)
	}
}

func readFile(name string) (Row, error) {
	// A real row is a few kilobytes; a runaway file must not take the
	// reader's memory.
	data, err := reading.ReadFile(name, reading.MaxLedgerRow)
	if err != nil {
		return Row{}, err
	}
	return Parse(data)
}

// Find reads the row of a session under root, wherever its month put
// it; ok is false when there is none, or it does not read.
func Find(root, session string) (r Row, ok bool) {
	if !state.PlainName(session) {
		return Row{}, false
	}
	found, _ := filepath.Glob(filepath.Join(Dir(root), "*", session+".json"))
	for _, name := range found {
		if r, err := readFile(name); err == nil {
			return r, true
		}
	}
	return Row{}, false
}
