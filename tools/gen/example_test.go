package gen_test

import (
	"fmt"
	"io"

	"github.com/muthur/context-budget/tools/gen"
)

// A 1 MB transcript whose last response sits behind a 3 MB tool result;
// the Result says what a correct tail reader returns for it.
func ExampleWrite() {
	res, err := gen.Write(io.Discard, gen.Options{Size: 1 << 20, Seed: 1, Tail: gen.TailBehindHuge})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Bytes > 4<<20, res.Reading > 20_000, res.ToolUseID[:8])
	// Output: true true toolu_01
}
