package prices

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestForHook: the hook prices with the merged table the full program
// cached while the override files are as they were, else with the
// built-in table.
func TestForHook(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	cache := filepath.Join(dir, CacheName)
	files := []string{user, filepath.Join(dir, "absent.toml")}
	merged, _ := Embedded()
	merged.Set(Row{ID: "my-model", Rates: Rates{Input: 1, Output: 5, CacheRead: 0.1, CacheWrite5m: 1.25, CacheWrite1h: 2}})
	priced := func() bool {
		read := func() ([]byte, error) { return os.ReadFile(cache) }
		_, ok := ForHook(read, files).Lookup("my-model", "")
		return ok
	}

	// No override file: the built-in table, whatever a cache holds.
	if err := WriteCache(cache, Stamp(files), merged); err != nil {
		t.Fatal(err)
	}
	if priced() {
		t.Error("no override file, yet the cached table was used")
	}
	// A file the full program has not read since: the built-in table.
	os.WriteFile(user, []byte("# mine\n"), 0o644)
	if priced() {
		t.Error("a cache made before the file was written was used")
	}
	// Cached under the files' stamp: the merged table.
	if err := WriteCache(cache, Stamp(files), merged); err != nil {
		t.Fatal(err)
	}
	if !priced() {
		t.Error("the cache made for the files as they are was not used")
	}
	// The file changes: the built-in table until the cache is rewritten.
	later := time.Now().Add(time.Hour)
	os.Chtimes(user, later, later)
	if priced() {
		t.Error("a cache of the file before it changed was used")
	}
	if !strings.HasPrefix(Stamp(files), "as_of "+EmbeddedAsOf()+"|"+user+" 7 ") {
		t.Errorf("Stamp = %q", Stamp(files))
	}
}

// TestReadCacheChecks: a cache file is checked as a price file is, since
// anything in the folder it lives in may have been planted.
func TestReadCacheChecks(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, CacheName)
	for _, tc := range []struct {
		name, text string
		ok         bool
	}{
		{"good", `{"stamp":"s","table":{"AsOf":"2027-01-01","Rows":[{"ID":"m","Input":1,"Output":5,"CacheRead":0.1,"CacheWrite5m":1.25,"CacheWrite1h":2}]}}`, true},
		{"another stamp", `{"stamp":"t","table":{"Rows":[]}}`, false},
		{"zero rate", `{"stamp":"s","table":{"Rows":[{"ID":"m","Input":0,"Output":5,"CacheRead":0.1,"CacheWrite5m":1.25,"CacheWrite1h":2}]}}`, false},
		{"huge rate", `{"stamp":"s","table":{"Rows":[{"ID":"m","Input":1e6,"Output":5,"CacheRead":0.1,"CacheWrite5m":1.25,"CacheWrite1h":2}]}}`, false},
		{"no table", `{"stamp":"s"}`, false},
		{"not JSON", `{"stamp":"s",`, false},
	} {
		os.WriteFile(cache, []byte(tc.text), 0o644)
		if tab, ok := ReadCache(cache, "s"); ok != tc.ok {
			t.Errorf("%s: ok %v, want %v (%+v)", tc.name, ok, tc.ok, tab)
		}
	}
	if _, ok := ReadCache(filepath.Join(dir, "absent"), "s"); ok {
		t.Error("a missing cache read as one")
	}
}
