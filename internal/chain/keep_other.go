//go:build unix && !linux

package chain

// Without a subreaper, what a session detached escapes the keeper; the
// runner still ends the session's process group.
func subreaper() {}

func descendants() []int { return nil }
