package telemetry

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/settings"
)

// writeEnv writes a settings file with an env block.
func writeEnv(t *testing.T, name, block string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(`{"env":`+block+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

// noManaged points the managed settings file at one that does not exist,
// or at name.
func managedAt(t *testing.T, name string) {
	old := settings.ManagedFile
	settings.ManagedFile = func() string { return name }
	t.Cleanup(func() { settings.ManagedFile = old })
}

const on = `{"CLAUDE_CODE_ENABLE_TELEMETRY":"1","OTEL_LOGS_EXPORTER":"otlp","OTEL_EXPORTER_OTLP_ENDPOINT":"http://user:4318"}`

// TestForHooks: the hooks take telemetry from the user's settings and the
// managed ones over them, never from the environment or a project's
// settings, and not at all when the project's settings move HOME or the
// Claude Code folder.
func TestForHooks(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	managedAt(t, filepath.Join(t.TempDir(), "managed-settings.json"))
	getenv := func(k string) string {
		return map[string]string{"HOME": home, "CLAUDE_CODE_ENABLE_TELEMETRY": "1", "OTEL_LOGS_EXPORTER": "otlp"}[k]
	}
	if c := ForHooks(getenv, root); c.On() {
		t.Errorf("from the environment alone: %+v", c)
	}
	writeEnv(t, filepath.Join(root, ".claude", "settings.json"), on)
	writeEnv(t, filepath.Join(root, ".claude", "settings.local.json"), on)
	if c := ForHooks(getenv, root); c.On() {
		t.Errorf("from a project's settings: %+v", c)
	}
	writeEnv(t, filepath.Join(home, ".claude", "settings.json"), on)
	c := ForHooks(getenv, root)
	if !c.Logs || c.Metrics || !slices.Contains(c.Env, "OTEL_EXPORTER_OTLP_ENDPOINT=http://user:4318") {
		t.Errorf("from the user's settings: %+v", c)
	}
	managed := filepath.Join(t.TempDir(), "managed-settings.json")
	writeEnv(t, managed, `{"OTEL_EXPORTER_OTLP_ENDPOINT":"http://it:4318","OTEL_METRICS_EXPORTER":"otlp"}`)
	managedAt(t, managed)
	if c := ForHooks(getenv, root); !c.Metrics || !slices.Contains(c.Env, "OTEL_EXPORTER_OTLP_ENDPOINT=http://it:4318") {
		t.Errorf("managed over the user's: %+v", c)
	}
	writeEnv(t, filepath.Join(root, ".claude", "settings.json"), `{"CLAUDE_CONFIG_DIR":"elsewhere"}`)
	if c := ForHooks(getenv, root); c.On() {
		t.Errorf("a project that moves the Claude Code folder: %+v", c)
	}
}

// TestForRun: run takes its own environment, the user's settings over it.
func TestForRun(t *testing.T) {
	home := t.TempDir()
	managedAt(t, filepath.Join(t.TempDir(), "none.json"))
	environ := []string{"CLAUDE_CODE_ENABLE_TELEMETRY=true", "OTEL_METRICS_EXPORTER=otlp,console", "OTEL_EXPORTER_OTLP_HEADERS=x=1", "PATH=/bin"}
	c := ForRun(environ, filepath.Join(home, ".claude"))
	if !c.Metrics || c.Logs || !slices.Contains(c.Env, "OTEL_EXPORTER_OTLP_HEADERS=x=1") || slices.Contains(c.Env, "PATH=/bin") {
		t.Errorf("from the environment: %+v", c)
	}
	writeEnv(t, filepath.Join(home, ".claude", "settings.json"), `{"CLAUDE_CODE_ENABLE_TELEMETRY":"0"}`)
	if c := ForRun(environ, filepath.Join(home, ".claude")); c.On() {
		t.Errorf("the user's settings turn it off: %+v", c)
	}
	if c := ForRun([]string{"CLAUDE_CODE_ENABLE_TELEMETRY=1", "OTEL_LOGS_EXPORTER=console"}, home); c.On() {
		t.Errorf("no otlp exporter: %+v", c)
	}
}

// TestExporterEnv: the exporter gets the caller's environment less every
// OpenTelemetry variable, then the config's.
func TestExporterEnv(t *testing.T) {
	c := Config{Logs: true, Env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://user:4318"}}
	got := ExporterEnv(c, []string{"HOME=/h", "OTEL_EXPORTER_OTLP_ENDPOINT=http://project:4318", "OTEL_EXPORTER_OTLP_HEADERS=k=v", "CLAUDE_CODE_ENABLE_TELEMETRY=1"})
	want := []string{"HOME=/h", "OTEL_EXPORTER_OTLP_ENDPOINT=http://user:4318"}
	if !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestStamp: the chain's attributes go after the user's, percent-encoded;
// a key the user set is kept as set.
func TestStamp(t *testing.T) {
	attrs := []Attr{{AttrChain, "c1"}, {AttrPlace, "2"}, {AttrRepository, "widget"}, {AttrBranch, "feat/a,b=c d%"}}
	for _, tc := range []struct{ user, want string }{
		{"", "context_budget.chain.id=c1,context_budget.chain.place=2,vcs.repository.name=widget,vcs.ref.head.name=feat%2Fa%2Cb%3Dc%20d%25"},
		{"team=core, vcs.repository.name=mine,", "team=core, vcs.repository.name=mine,context_budget.chain.id=c1,context_budget.chain.place=2,vcs.ref.head.name=feat%2Fa%2Cb%3Dc%20d%25"},
	} {
		got := Stamp(tc.user, attrs)
		if got != tc.want {
			t.Errorf("Stamp(%q) = %q, want %q", tc.user, got, tc.want)
		}
		for _, kv := range strings.Split(got, ",") {
			k, v, _ := strings.Cut(kv, "=")
			if k == AttrBranch {
				if dec, err := url.PathUnescape(v); err != nil || dec != "feat/a,b=c d%" {
					t.Errorf("branch decodes to %q, %v", dec, err)
				}
			}
		}
	}
	if got := Stamp("a=1", []Attr{{AttrBranch, ""}}); got != "a=1" {
		t.Errorf("an empty value: %q", got)
	}
}

// FuzzStamp: whatever the user's value, the stamped one keeps it as its
// start, names each key once at most beyond it, and every value it adds
// decodes back to the value given.
func FuzzStamp(f *testing.F) {
	f.Add("team=core", "feat/x")
	f.Add("", "a,b=c")
	f.Add("vcs.ref.head.name=x,,=", "é%")
	f.Fuzz(func(t *testing.T, user, branch string) {
		got := Stamp(user, []Attr{{AttrBranch, branch}, {AttrChain, "c1"}})
		base := strings.TrimRight(strings.TrimSpace(user), ",")
		if !strings.HasPrefix(got, base) {
			t.Fatalf("%q does not start with the user's %q", got, base)
		}
		added := strings.TrimPrefix(strings.TrimPrefix(got, base), ",")
		if added == "" {
			return
		}
		for _, kv := range strings.Split(added, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || strings.ContainsAny(v, ",= ") {
				t.Fatalf("added %q is not key=encoded value", kv)
			}
			dec, err := url.PathUnescape(v)
			if err != nil || k == AttrBranch && dec != branch {
				t.Fatalf("%q decodes to %q, %v; want %q", kv, dec, err, branch)
			}
		}
	})
}
