package chain

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/ledger"
)

// BenchmarkSessionWork is the runner's own work around one session, in a
// repository of 5,000 files: the snapshots at its start and end, the
// search for a hand-over, the tally of the transcripts (one new
// session's), its last message and the commit of its row. It reports
// the CPU of the runner and of the git commands it starts, per session.
func BenchmarkSessionWork(b *testing.B) {
	dir := b.TempDir()
	if _, err := gitOut(dir, nil, "init", "-q", "-b", "main"); err != nil {
		b.Skip("no git")
	}
	gitOut(dir, nil, "config", "user.name", "b")
	gitOut(dir, nil, "config", "user.email", "b@example.invalid")
	for i := range 5000 {
		p := filepath.Join(dir, "src", fmt.Sprint(i%50), fmt.Sprintf("f%d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package f\n"), 0o644)
	}
	gitOut(dir, nil, "add", "-A")
	gitOut(dir, nil, "commit", "-qm", "init")
	projects := filepath.Join(b.TempDir(), "projects")
	os.MkdirAll(filepath.Join(projects, "p"), 0o755)
	tab, _ := prices.Embedded()
	spend := &fuse.Sessions{Projects: projects, Root: dir, From: time.Now().Add(-time.Minute), Price: fuse.TablePricer(tab)}
	line := fmt.Sprintf(`{"type":"assistant","cwd":%q,"message":{"id":"m","model":"claude-opus-4-6","content":[{"type":"text","text":"Done."}],"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":80000,"output_tokens":0}}}`+"\n", dir)
	var before, beforeKids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &beforeKids)
	b.ResetTimer()
	for i := range b.N {
		id := NewID()
		tr := filepath.Join(projects, "p", id+".jsonl")
		os.WriteFile(tr, []byte(line), 0o644)
		start, err := snapshot(dir)
		if err != nil {
			b.Fatal(err)
		}
		row := ledger.Row{SessionID: id, FirstResponseAt: "2026-12-01T10:00:00Z", Chain: "c", Place: i + 1}
		ledger.Write(dir, &row)
		spend.Update()
		_ = lastMessage(tr)
		handedOver(dir, start.head)
		snapshot(dir)
		if note := commitRow(dir, id); note != "" {
			b.Fatal(note)
		}
	}
	b.StopTimer()
	var after, afterKids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &afterKids)
	cpu := func(a, z syscall.Rusage) time.Duration {
		return time.Duration(z.Utime.Nano()+z.Stime.Nano()-a.Utime.Nano()-a.Stime.Nano()) / time.Duration(b.N)
	}
	b.ReportMetric(float64(cpu(before, after).Microseconds())/1000, "runner-cpu-ms/op")
	b.ReportMetric(float64(cpu(beforeKids, afterKids).Microseconds())/1000, "git-cpu-ms/op")
}
