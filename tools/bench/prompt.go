package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/tools/gen"
)

// promptCases is the cold cache's row (design §14): a UserPromptSubmit
// on a warm prompt cache, the common case, which the hook answers itself,
// on the largest transcript. The transcript is the hook cases' with its
// last response written once more at the end, stamped a moment ago and
// kept that fresh before every run (untimed), so each run takes the warm
// path: the tail scan, and the answer that the cache is warm. A cold
// prompt is context-budget-cli's, and the probe fails the run if a
// measured call reaches it.
func promptCases(pe planEnv, sizes []int64) ([]benchCase, error) {
	if len(sizes) == 0 {
		return nil, nil
	}
	size := sizes[len(sizes)-1]
	src, res, err := transcript(pe.cache, size, gen.TailCall)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(pe.cache, "warm-prompt.jsonl")
	base, last, err := warmCopy(src, file)
	if err != nil {
		return nil, err
	}
	var stamped time.Time
	restamp := func() {
		if time.Since(stamped) < time.Minute {
			return
		}
		stamped = time.Now()
		line := stampRE.ReplaceAll(last, []byte(`"timestamp":"`+stamped.UTC().Format(time.RFC3339Nano)+`"`))
		if err := os.Truncate(file, base); err != nil {
			return
		}
		if f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			f.Write(append(line, '\n'))
			f.Close()
		}
	}
	restamp()
	p := fmt.Appendf(nil, `{"session_id":"bench-prompt","transcript_path":%q,"cwd":%q,"permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"Carry on with the plan, then run the tests."}`,
		file, pe.project)
	return []benchCase{{name: "UserPromptSubmit, warm", size: size, file: file, res: res, env: cleanEnv(),
		budget: budgetNotice, payload: fixed(p), before: restamp}}, nil
}

var stampRE = regexp.MustCompile(`"timestamp":"[^"]*"`)

// warmCopy copies src to dst and returns the copy's size and the last
// line of src holding an assistant response, to be appended again.
func warmCopy(src, dst string) (size int64, last []byte, err error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return 0, nil, err
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	for i := len(lines) - 1; i >= 0 && last == nil; i-- {
		if len(lines[i]) < reading.MaxLine && bytes.Contains(lines[i], []byte(`"type":"assistant"`)) {
			last = bytes.Clone(lines[i])
		}
	}
	if last == nil {
		return 0, nil, fmt.Errorf("%s: no response to copy", src)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return 0, nil, err
	}
	return int64(len(data)), last, nil
}
