package prices

import (
	"encoding/json"
	"os"
	"strconv"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// CacheName is the name of the file the full program keeps the merged
// table in for the hook (WriteCache), in a folder its callers choose.
const CacheName = "prices.json"

// Stamp names the price files as they are now: the built-in table's
// as_of, then each file that exists with its size and modification time.
// A new build's table, or any change to a file, changes it.
func Stamp(files []string) string {
	s, _ := stamp(files)
	return s
}

func stamp(files []string) (s string, n int) {
	b := []byte("as_of " + embeddedAsOf)
	for _, name := range files {
		fi, err := os.Stat(name)
		if err != nil {
			continue
		}
		b = append(b, "|"+name+" "...)
		b = strconv.AppendInt(append(strconv.AppendInt(b, fi.Size(), 10), ' '), fi.ModTime().UnixNano(), 10)
		n++
	}
	return string(b), n
}

// cacheFile is what a cache file holds.
type cacheFile struct {
	Stamp string `json:"stamp"`
	Table *Table `json:"table"`
}

// WriteCache writes t, which the full program merged and checked from
// override files that had the given stamp (taken before they were read),
// to name: a file of a state folder, written as state.WriteJSON writes.
func WriteCache(name, stamp string, t *Table) error {
	return state.WriteJSON(name, cacheFile{stamp, t})
}

// CacheData is what WriteCache writes, for a writer of its own folder.
func CacheData(stamp string, t *Table) []byte {
	data, _ := json.Marshal(cacheFile{stamp, t})
	return append(data, '\n')
}

// ReadCache returns the table cached in name when it was made from files
// with this stamp and every row still passes Check; else ok is false.
func ReadCache(name, stamp string) (t *Table, ok bool) {
	data, err := reading.ReadFile(name, reading.MaxCacheFile)
	return FromCache(data, err, stamp)
}

// FromCache is ReadCache of what a read of a cache file returned (data,
// err), for a reader of its own folder.
func FromCache(data []byte, err error, stamp string) (t *Table, ok bool) {
	c, ok := state.FromJSON[cacheFile](data, err)
	if !ok || c.Stamp != stamp || c.Table == nil {
		return nil, false
	}
	for i := range c.Table.Rows {
		if c.Table.Rows[i].Check() != nil {
			return nil, false
		}
	}
	return c.Table, true
}

// ForHook is the table a hook call prices with, read without TOML: the
// merged table cached in the file read reads (bounded by
// reading.MaxCacheFile) while it answers for the override files as they
// are now, else the built-in table (no file, or the full program has
// not seen them since they changed, or refused them).
func ForHook(read func() ([]byte, error), files []string) *Table {
	if s, n := stamp(files); n > 0 {
		data, err := read()
		if t, ok := FromCache(data, err, s); ok {
			return t
		}
	}
	t, _ := Embedded()
	return t
}
