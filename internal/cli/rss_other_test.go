//go:build !linux

package cli

import "testing"

// testOnlyHWM: peak memory is measured from /proc, on Linux only.
const testOnlyHWM = "CONTEXT_BUDGET_TEST_ONLY_HWM"

// peakOf is 0 (not measured) here.
func peakOf(*testing.T, string) int64 { return 0 }
