package cli

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/operator/gh"
)

// These tests run the hook in this process and the operator look-up in a
// child (this test binary as context-budget-operator, see TestMain) that
// reaches a fake GitHub API the way it would reach the real one: through
// HTTPS_PROXY, to api.github.com, trusting a certificate from SSL_CERT_FILE.

// ghToken is the fake API's token; it must never show in any output or file.
const ghToken = "gho_testOnlyHookSecret42"

// Phrases of the notice's ending (internal/notice).
const (
	phraseAuto   = "without asking and with no argument, run /relay"
	phraseManual = "end your turn offering /relay; do not run it unasked"
	phraseOffer  = "If you'd rather I ask before relaying, say so."
)

// fakeGitHub is api.github.com behind a CONNECT proxy on loopback.
type fakeGitHub struct {
	mu       sync.Mutex
	users    int      // requests that reached the API
	auth     []string // their Authorization headers
	connects []string // CONNECT targets the proxy saw
}

func (f *fakeGitHub) counts() (users, connects int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.users, len(f.connects)
}

// newFakeGitHub starts the API with h as its handler and the proxy, and
// points this process's environment (which the child inherits) at them.
func newFakeGitHub(t *testing.T, h http.HandlerFunc) *fakeGitHub {
	t.Helper()
	f := &fakeGitHub{}
	caPEM, leaf := testCertificates(t, "api.github.com")
	api := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.users++
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		h(w, r)
	}))
	api.TLS = &tls.Config{Certificates: []tls.Certificate{leaf}}
	api.StartTLS()
	t.Cleanup(api.Close)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.connects = append(f.connects, r.Method+" "+r.Host)
		f.mu.Unlock()
		if r.Method != http.MethodConnect || r.Host != "api.github.com:443" {
			http.Error(w, "only api.github.com is tunnelled here", http.StatusForbidden)
			return
		}
		tunnel(w, api.Listener.Addr().String())
	}))
	t.Cleanup(proxy.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("SSL_CERT_FILE", ca)
	t.Setenv("GH_TOKEN", ghToken)
	return f
}

// tunnel joins a hijacked CONNECT request to addr.
func tunnel(w http.ResponseWriter, addr string) {
	up, err := net.Dial("tcp", addr)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	conn, rw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		up.Close()
		return
	}
	io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, rw); done <- struct{}{} }()
	go func() { io.Copy(conn, up); done <- struct{}{} }()
	<-done
	conn.Close()
	up.Close()
}

// testCertificates makes a CA (returned as PEM) and a certificate for host
// signed by it.
func testCertificates(t *testing.T, host string) ([]byte, tls.Certificate) {
	t.Helper()
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "context-budget test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: host}, DNSNames: []string{host},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// githubUser answers GET /user for the test token with body.
func githubUser(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/user" || r.Header.Get("Authorization") != "token "+ghToken {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"message":"Bad credentials"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		io.WriteString(w, body)
	}
}

// hookSession drives the hook for one session in root.
type hookSession struct {
	t               *testing.T
	root, id, trans string
	outputs         []string
	calls           int
	took            time.Duration // the last call's wall time
}

func newHookSession(t *testing.T, root, id string) *hookSession {
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "MUTHUR_CONTEXT_BUDGET_WARN", "MUTHUR_CONTEXT_BUDGET_PAUSE",
		"MUTHUR_CONTEXT_BUDGET_LINES", "MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY", "MUTHUR_CONTEXT_BUDGET_WINDOW",
		"MUTHUR_CONTEXT_BUDGET_WARN_SAVING_USD", "MUTHUR_CONTEXT_BUDGET_PAUSE_SAVING_USD"} {
		t.Setenv(v, "")
	}
	t.Setenv("MUTHUR_CONTEXT_BUDGET_LINES", "fixed")
	return &hookSession{t: t, root: root, id: id, trans: filepath.Join(t.TempDir(), id+".jsonl")}
}

// call appends a response carrying tokens of context to the transcript and
// runs the hook; it returns the notice, "" for silence.
func (s *hookSession) call(tokens int64) string {
	s.t.Helper()
	s.calls++
	f, err := os.OpenFile(s.trans, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	fmt.Fprintf(f, `{"type":"assistant","isSidechain":false,"message":{"id":"msg_%d","model":"claude-opus-4-6","usage":{"input_tokens":%d,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"output_tokens":10}}}`+"\n", s.calls, tokens)
	f.Close()
	payload := fmt.Sprintf(`{"hook_event_name":"PostToolUse","session_id":%q,"transcript_path":%q,"cwd":%q}`, s.id, s.trans, s.root)
	var out, errOut strings.Builder
	start := time.Now()
	defer func() { s.took = time.Since(start) }()
	if code := runHook(nil, strings.NewReader(payload), &out, &errOut); code != 0 || errOut.Len() != 0 {
		s.t.Fatalf("hook: exit %d, stderr %q", code, errOut.String())
	}
	s.outputs = append(s.outputs, out.String())
	return out.String()
}

func writeOperatorFile(t *testing.T, root, login, content string) {
	t.Helper()
	dir := filepath.Join(root, ".claude", "context-budget", "manual-relay")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, login), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// noToken fails the test if the token shows in any output or file.
func noToken(t *testing.T, root string, outputs ...string) {
	t.Helper()
	for _, out := range outputs {
		if strings.Contains(out, ghToken) {
			t.Errorf("the token is in the hook's output: %q", out)
		}
	}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if data, _ := os.ReadFile(p); strings.Contains(string(data), ghToken) {
			t.Errorf("the token is in %s", p)
		}
		return nil
	})
}

// skipIfLookupTimedOut skips a test whose look-up ran into its 1.5 s
// timeout: on a loopback proxy a look-up takes a few milliseconds, so one
// that long means a machine too loaded to tell anything, not a bug.
func skipIfLookupTimedOut(t *testing.T, took time.Duration) {
	t.Helper()
	if took >= gh.Timeout {
		t.Skipf("the operator look-up took %v, past its %v timeout: the machine is too loaded for this test", took, gh.Timeout)
	}
}

func TestHookLooksUpTheOperatorOncePerSessionWhenANoticeFires(t *testing.T) {
	gh := newFakeGitHub(t, githubUser(`{"login":"OctoCat","id":1,"type":"User"}`))
	root := t.TempDir()
	s := newHookSession(t, root, "s1")
	for range 3 {
		if out := s.call(60_000); out != "" {
			t.Fatalf("below the warn line: %q", out)
		}
	}
	if users, connects := gh.counts(); users+connects != 0 {
		t.Fatalf("no notice fired, yet the API saw %d requests and the proxy %d", users, connects)
	}
	warn := s.call(350_000)
	skipIfLookupTimedOut(t, s.took)
	if !strings.Contains(warn, "warning line") || !strings.Contains(warn, phraseAuto) || !strings.Contains(warn, phraseOffer) {
		t.Errorf("warn notice lacks the warning, the automatic relay or the offer: %q", warn)
	}
	for range 3 {
		if out := s.call(360_000); out != "" {
			t.Fatalf("the warning repeated: %q", out)
		}
	}
	pause := s.call(410_000)
	if !strings.Contains(pause, "pause line") || !strings.Contains(pause, phraseAuto) || !strings.Contains(pause, phraseOffer) {
		t.Errorf("pause notice lacks the pause, the automatic relay or the offer: %q", pause)
	}
	users, connects := gh.counts()
	if users != 1 || connects != 1 {
		t.Errorf("look-ups: API %d, proxy %d; want one of each for the session", users, connects)
	}
	if gh.connects[0] != "CONNECT api.github.com:443" || gh.auth[0] != "token "+ghToken {
		t.Errorf("the look-up went to %q with %q; want api.github.com through the proxy, with the token", gh.connects[0], gh.auth[0])
	}
	cache, err := os.ReadFile(filepath.Join(root, "tmp", "context-budget", "s1.operator"))
	if err != nil || string(cache) != "octocat\n" {
		t.Errorf("cached operator = %q, %v; want octocat", cache, err)
	}

	// The operator's yes, committed in the tree, turns manual mode on for
	// the next session; one more look-up for it.
	writeOperatorFile(t, root, "octocat", "true\n")
	s2 := newHookSession(t, root, "s2")
	out := s2.call(410_000)
	skipIfLookupTimedOut(t, s2.took)
	if !strings.Contains(out, phraseManual) || strings.Contains(out, phraseAuto) || strings.Contains(out, phraseOffer) {
		t.Errorf("with the operator's yes: %q; want manual mode and no offer", out)
	}
	// Their no: automatic, and nothing offered.
	writeOperatorFile(t, root, "octocat", "off")
	s3 := newHookSession(t, root, "s3")
	out = s3.call(410_000)
	skipIfLookupTimedOut(t, s3.took)
	if !strings.Contains(out, phraseAuto) || strings.Contains(out, phraseOffer) {
		t.Errorf("with the operator's no: %q; want automatic relay and no offer", out)
	}
	if users, _ := gh.counts(); users != 3 {
		t.Errorf("look-ups for three sessions = %d, want 3", users)
	}
	noToken(t, root, append(append(s.outputs, s2.outputs...), s3.outputs...)...)
}

func TestHookManualSwitchAsksNobody(t *testing.T) {
	gh := newFakeGitHub(t, githubUser(`{"login":"octocat","type":"User"}`))
	root := t.TempDir()
	s := newHookSession(t, root, "s1")
	t.Setenv("MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY", " Yes ")
	warn := s.call(350_000)
	pause := s.call(410_000)
	for _, out := range []string{warn, pause} {
		if !strings.Contains(out, phraseManual) || strings.Contains(out, phraseOffer) {
			t.Errorf("with the switch on: %q; want manual mode and no offer", out)
		}
	}
	if users, connects := gh.counts(); users+connects != 0 {
		t.Errorf("the switch settles it, yet the API saw %d requests and the proxy %d", users, connects)
	}
	if _, err := os.Stat(filepath.Join(root, "tmp", "context-budget", "s1.operator")); err == nil {
		t.Errorf("an operator was recorded though none was looked up")
	}
}

func TestHookWithoutAnOperator(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"a bot", githubUser(`{"login":"ci-helper[bot]","type":"Bot"}`)},
		{"bad credentials", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"message":"Bad credentials"}`)
		}},
		{"a hanging API", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gh := newFakeGitHub(t, tc.handler)
			root := t.TempDir()
			// Someone's yes is in the tree, but nobody is the operator.
			writeOperatorFile(t, root, "ci-helper", "true")
			s := newHookSession(t, root, "s1")
			// A hanging API is never let go: the notice comes only
			// if the look-up is given up.
			out := s.call(410_000)
			if !strings.Contains(out, phraseAuto) || strings.Contains(out, phraseOffer) || strings.Contains(out, phraseManual) {
				t.Errorf("no operator: %q; want the default, nothing offered", out)
			}
			if users, _ := gh.counts(); users != 1 {
				t.Errorf("the API saw %d requests, want 1", users)
			}
			cache, err := os.ReadFile(filepath.Join(root, "tmp", "context-budget", "s1.operator"))
			if err != nil || string(cache) != "\n" {
				t.Errorf("cached operator = %q, %v; want none recorded", cache, err)
			}
			noToken(t, root, s.outputs...)
		})
	}
}

func TestHookReadsOnlyTheOperatorsOwnFile(t *testing.T) {
	newFakeGitHub(t, githubUser(`{"login":"alice","type":"User"}`))
	root := t.TempDir()
	writeOperatorFile(t, root, "bob", "true")
	s := newHookSession(t, root, "s1")
	out := s.call(410_000)
	skipIfLookupTimedOut(t, s.took)
	if !strings.Contains(out, phraseAuto) || !strings.Contains(out, phraseOffer) {
		t.Errorf("bob's yes must not apply to alice: %q", out)
	}
}

// TestOperatorCommandThroughTheProxy runs the child on its own: it prints
// the login and nothing else.
func TestOperatorCommandThroughTheProxy(t *testing.T) {
	newFakeGitHub(t, githubUser(`{"login":"Mona","type":"User"}`))
	var stderr strings.Builder
	cmd := exec.Command("context-budget-operator")
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		skipIfLookupTimedOut(t, time.Since(start))
	}
	if err != nil || string(out) != "mona\n" || stderr.Len() != 0 {
		t.Errorf("context-budget-operator = %q, %v, stderr %q; want mona", out, err, stderr.String())
	}
}
