package orientation

import (
	"bytes"

	"github.com/muthur/context-budget/internal/reading"
)

// ReadOrientationFrom is ReadOrientation of a main transcript held in
// memory — the prefix of a file as it stood after some response, which is
// what the hook read at that moment and what replay holds while it walks
// the file — with the subagent files beside transcriptPath.
func ReadOrientationFrom(main []byte, transcriptPath string) *Session {
	sc := newScanner()
	sc.stopAtActing = true
	sc.file(bytes.NewReader(main), false)
	for _, name := range SubagentFiles(transcriptPath) {
		g, _, err := reading.Open(name)
		if err != nil {
			continue
		}
		sc.fileNo++
		sc.file(g, true)
		g.Close()
		sc.s.SubagentFiles = append(sc.s.SubagentFiles, name)
	}
	return sc.finish()
}
