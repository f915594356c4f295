package orientation

import "bytes"

// ReadOrientationFrom is ReadOrientation of a main transcript held in
// memory — the prefix of a file as it stood after some response, which is
// what the hook read at that moment and what replay holds while it walks
// the file — with the subagent files beside transcriptPath.
func ReadOrientationFrom(main []byte, transcriptPath string) *Session {
	sc := newScanner()
	sc.stopAtActing = true
	sc.file(bytes.NewReader(main), false)
	sc.subagents(transcriptPath)
	return sc.finish()
}
