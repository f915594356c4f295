package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a size such as "1MB", "100MB", "1GB" or "4096"; the
// suffixes are binary (1MB = 1<<20 bytes).
func ParseSize(s string) (int64, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, suf := range []struct {
		name string
		mult int64
	}{{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(u, suf.name) {
			u, mult = strings.TrimSuffix(u, suf.name), suf.mult
			break
		}
	}
	n, err := strconv.ParseInt(u, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad size %q: want a number with an optional KB, MB or GB suffix", s)
	}
	return n * mult, nil
}

// FormatSize is the inverse of ParseSize for whole KB, MB and GB.
func FormatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKB", n>>10)
	}
	return strconv.FormatInt(n, 10)
}
