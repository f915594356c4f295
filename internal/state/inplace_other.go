//go:build !linux

package state

import "errors"

// openInPlaceFast has no one-call way here: the file is opened through
// os.Root.
func openInPlaceFast(root, rel string) (fd int, ok bool) { return -1, false }

var errNoFd = errors.New("no descriptor")

// writeAtFd and closeFd are never reached here: an InPlace holds an
// os.File.
func writeAtFd(int, []byte) error { return errNoFd }
func closeFd(int) error           { return errNoFd }
