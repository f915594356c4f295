//go:build !unix

package state

import (
	"errors"
	"os"
	"time"
)

// lock takes an exclusive lock by creating name exclusively, waiting up to
// two seconds; a lock older than that is taken as left by a dead process.
func lock(name string) (unlock func(), err error) {
	deadline := time.Now().Add(2 * time.Second)
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if time.Now().After(deadline) {
			os.Remove(name)
			deadline = time.Now().Add(2 * time.Second)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
