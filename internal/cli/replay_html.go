package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/muthur/context-budget/internal/replay"
)

// reportProgram draws the HTML report. It is a program of its own so that
// the hook's binary does not link the plotting library, whose package
// initialisation every hook call would pay.
const reportProgram = "context-budget-report"

const reportHint = "context-budget-report draws the HTML report; install it beside context-budget (make install does)"

// errNoReportProgram says context-budget-report is nowhere to be found:
// the one failure of --html that reinstalling cures.
var errNoReportProgram = errors.New(reportProgram + " not found beside context-budget or on PATH")

// checkReportPath fails early, before a long replay, when the page cannot
// be written where asked: its folder missing, not a folder, or the name a
// folder itself.
func checkReportPath(file string) error {
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return fmt.Errorf("--html %s: is a folder", file)
	}
	dir := filepath.Dir(file)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("--html %s: %w", file, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("--html %s: %s is not a folder", file, dir)
	}
	return nil
}

// writeHTML hands the replay to context-budget-report, found beside this
// executable or on PATH, which writes the report to file.
func writeHTML(rep replay.Report, file string) error {
	prog, err := findReportProgram()
	if err != nil {
		return err
	}
	data, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	cmd := exec.Command(prog, "-o", file)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		// The program's own error says what went wrong (a folder that
		// cannot be written, say); pass on its first line without its name.
		if msg := bytes.TrimSpace(stderr.Bytes()); len(msg) > 0 {
			first, _, _ := bytes.Cut(msg, []byte("\n"))
			first = bytes.TrimPrefix(first, []byte(reportProgram+": error: "))
			return fmt.Errorf("writing the report: %s", first)
		}
		return fmt.Errorf("%s: %w", reportProgram, err)
	}
	return nil
}

func findReportProgram() (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), reportProgram)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(reportProgram)
	if err != nil {
		return "", errNoReportProgram
	}
	return p, nil
}
