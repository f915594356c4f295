// Command floor is the benchmark's floor: the least a Go hook can do. It
// reads its standard input to the end and exits, using the standard
// library only. The hook's budget is a multiple of this program's wall
// time and memory (design §11).
package main

import (
	"io"
	"os"
)

func main() {
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		os.Exit(1)
	}
}
