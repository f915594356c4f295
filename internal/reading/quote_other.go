//go:build !amd64 || purego

package reading

// closingQuoteFast is closingQuoteGo where there is no assembly for it.
func closingQuoteFast(seg []byte, run int) (int, int) { return closingQuoteGo(seg, run) }
