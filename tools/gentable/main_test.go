package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/prices/override"
)

// pricesDir holds prices.toml and table_gen.go.
var pricesDir = filepath.Join("..", "..", "internal", "prices")

// TestGeneratedFresh fails while table_gen.go is not what go generate
// makes of prices.toml: an edit of the price file must reach the binary.
func TestGeneratedFresh(t *testing.T) {
	want, err := generate(filepath.Join(pricesDir, "prices.toml"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(pricesDir, "table_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("table_gen.go is stale: run go generate ./internal/prices")
	}
	tab, _, err := override.Read(filepath.Join(pricesDir, "prices.toml"))
	if err != nil {
		t.Fatal(err)
	}
	emb, _ := prices.Embedded()
	if !reflect.DeepEqual(emb, tab) {
		t.Errorf("Embedded() differs from prices.toml read:\n%+v\n%+v", emb, tab)
	}
	if len(emb.Rows) < 10 || emb.AsOf == "" {
		t.Errorf("embedded table: %d rows, as_of %q", len(emb.Rows), emb.AsOf)
	}
}
