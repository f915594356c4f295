//go:build unix

package orientation

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU adds the process's CPU time per op to a benchmark's report:
// on a loaded machine wall time measures the neighbours.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
