package gh

import (
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
)

// redacted stands for a secret in anything printed.
const redacted = "[redacted]"

// tokenPrefixes open GitHub's token formats: a token of any of them is
// hidden even when it is not the one sent (a proxy may echo another).
var tokenPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}

// redact hides token, in the forms a host or proxy could echo it (plain,
// URL-escaped, base64 as in Basic authentication), any GitHub-format token,
// and whatever follows an Authorization header's name, in s.
func redact(s, token string) string {
	if token != "" {
		forms := []string{token, url.QueryEscape(token), url.PathEscape(token),
			base64.StdEncoding.EncodeToString([]byte(token)),
			base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token)),
			base64.StdEncoding.EncodeToString([]byte(token + ":x-oauth-basic"))}
		for _, f := range forms {
			s = strings.ReplaceAll(s, f, redacted)
		}
		// The token's longer pieces too: an echo may cut or wrap it.
		if len(token) >= 16 {
			for i := 0; i+12 <= len(token); i += 6 {
				s = strings.ReplaceAll(s, token[i:i+12], redacted)
			}
		}
	}
	for _, p := range tokenPrefixes {
		s = hideAfter(s, p, false)
	}
	return hideAfter(s, "authorization", true)
}

// hideAfter replaces what follows each occurrence of key (case-insensitive
// when fold) up to the end of its value: for a token prefix, the run of
// token characters; for a header name, the rest of the line or quoted
// string.
func hideAfter(s, key string, header bool) string {
	var b strings.Builder
	lower := s
	if header {
		lower = strings.ToLower(s)
	}
	i := 0
	for {
		j := strings.Index(lower[i:], key)
		if j < 0 {
			b.WriteString(s[i:])
			return b.String()
		}
		start := i + j + len(key)
		end := start
		if header {
			for end < len(s) && strings.IndexByte("\r\n\"}", s[end]) < 0 {
				end++
			}
		} else {
			for end < len(s) && isTokenChar(s[end]) {
				end++
			}
			if end == start {
				b.WriteString(s[i:start])
				i = start
				continue
			}
		}
		b.WriteString(s[i:start])
		if end > start {
			if header {
				b.WriteString(": ")
			}
			b.WriteString(redacted)
		}
		i = end
	}
}

func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// redactErr returns err with its message redacted, or err itself when
// there was nothing to hide (its sentinels still match with errors.Is).
func redactErr(err error, token string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if r := redact(msg, token); r != msg {
		return errors.New(r)
	}
	return err
}
