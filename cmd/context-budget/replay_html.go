package main

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
		if msg := bytes.TrimSpace(stderr.Bytes()); len(msg) > 0 {
			return fmt.Errorf("%s: %s", reportProgram, msg)
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
		return "", errors.New(reportProgram + " not found beside context-budget or on PATH")
	}
	return p, nil
}
