package telemetry

import (
	"strings"
)

// The resource attributes `context-budget run` puts on each session's
// own telemetry (Stamp): the chain's id and the session's place, and the
// repository and branch by OpenTelemetry's semantic conventions' names.
const (
	AttrChain      = "context_budget.chain.id"
	AttrPlace      = "context_budget.chain.place"
	AttrRepository = "vcs.repository.name"
	AttrBranch     = "vcs.ref.head.name"
)

// Attr is one resource attribute.
type Attr struct{ Key, Value string }

// Stamp returns value, an OTEL_RESOURCE_ATTRIBUTES list ("k=v,k=v"),
// with attrs appended: each value percent-encoded (a branch may hold ','
// and '='), a key the list already names kept as the user set it and
// not repeated, an empty value left out.
func Stamp(value string, attrs []Attr) string {
	set := map[string]bool{}
	for _, kv := range strings.Split(value, ",") {
		if k, _, ok := strings.Cut(kv, "="); ok {
			set[strings.TrimSpace(k)] = true
		}
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(strings.TrimSpace(value), ","))
	for _, a := range attrs {
		if a.Value == "" || set[a.Key] {
			continue
		}
		set[a.Key] = true
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(a.Key)
		b.WriteByte('=')
		b.WriteString(percentEncode(a.Value))
	}
	return b.String()
}

// percentEncode writes every byte but the URI's unreserved ones as %XX,
// as both OpenTelemetry's Go and JavaScript SDKs decode a resource
// attribute's value.
func percentEncode(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
