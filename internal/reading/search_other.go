//go:build !amd64 || purego

package reading

// pairRun is pairRunGo where there is no assembly for it.
func pairRun(s, word []byte, p, stop int) (int, bool) { return pairRunGo(s, word, p, stop) }
