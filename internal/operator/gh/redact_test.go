package gh

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// FuzzRedact: whatever surrounds it, a token (plain, URL-escaped or in
// Basic authentication's base64) never survives redact.
func FuzzRedact(f *testing.F) {
	f.Add("gho_abcdef0123456789", "HTTP 502: Authorization: token ", " end")
	f.Add("abcdefgh", "{\"message\":\"", "\"}")
	f.Add("github_pat_11AAAA_bbbb", "x", "y")
	f.Fuzz(func(t *testing.T, token, before, after string) {
		if len(token) < 8 || strings.Trim(token, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
			return
		}
		for _, form := range []string{token, url.QueryEscape(token), base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))} {
			got := redact(before+form+after, token)
			if strings.Contains(got, token) {
				t.Fatalf("redact(%q) = %q: the token is still there", before+form+after, got)
			}
		}
	})
}
