package gh

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// token is what the fake API expects; it must never show anywhere else.
const token = "gho_testOnlySecret0123456789"

func TestMain(m *testing.M) {
	// gh's configuration is read once per process: point it at an empty
	// folder before anything reads it, so a developer's own gh login is
	// never used, and make sure no gh binary is asked for a token.
	dir, err := os.MkdirTemp("", "operator-gh")
	if err != nil {
		panic(err)
	}
	os.Setenv("GH_CONFIG_DIR", dir)
	os.Setenv("GH_PATH", filepath.Join(dir, "no-gh"))
	for _, v := range []string{"GH_HOST", "GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_DEBUG"} {
		os.Unsetenv(v)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fakeAPI is an httptest GitHub API reached through a transport that sends
// every request to it, whatever host it names, and notes what it saw.
type fakeAPI struct {
	srv *httptest.Server

	mu       sync.Mutex
	requests []seen
}

type seen struct {
	Host, Path, Authorization string
}

func newFakeAPI(t *testing.T, h http.HandlerFunc) *fakeAPI {
	f := &fakeAPI{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, seen{r.Header.Get("X-Original-Host"), r.URL.Path, r.Header.Get("Authorization")})
		f.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) seen() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.requests...)
}

// RoundTrip sends a request for a named host to the fake server, and one
// for a loopback address where it says.
func (f *fakeAPI) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Hostname() == "127.0.0.1" {
		return http.DefaultTransport.RoundTrip(r)
	}
	u, _ := url.Parse(f.srv.URL)
	r = r.Clone(r.Context())
	r.Header.Set("X-Original-Host", r.URL.Host)
	r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

func user(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/user") || r.Header.Get("Authorization") != "token "+token {
			http.Error(w, `{"message":"Requires authentication"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		io.WriteString(w, body)
	}
}

// skipIfTimedOut skips a test whose request to the loopback fake ran into
// the timeout: that takes a machine too loaded to tell anything.
func skipIfTimedOut(t *testing.T, start time.Time) {
	t.Helper()
	if took := time.Since(start); took >= Timeout {
		t.Skipf("the request took %v, past the %v timeout: the machine is too loaded for this test", took, Timeout)
	}
}

func TestLogin(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
		wantErr error
	}{
		{"a user", user(`{"login":"OctoCat","id":1,"type":"User"}`), "octocat", nil},
		{"a bot", user(`{"login":"ci-helper[bot]","type":"Bot"}`), "", ErrNotUser},
		{"an organisation", user(`{"login":"acme","type":"Organization"}`), "", ErrNotUser},
		{"no type", user(`{"login":"octocat"}`), "", ErrNotUser},
		{"a login unfit for a path", user(`{"login":"../../x","type":"User"}`), "", ErrLogin},
		{"unauthorised", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		}, "", nil},
		{"server error", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "boom", http.StatusBadGateway)
		}, "", nil},
		{"garbage", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<html>") }, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, tc.handler)
			t.Setenv("GH_TOKEN", token)
			start := time.Now()
			got, err := Login(context.Background(), Options{Transport: api})
			skipIfTimedOut(t, start)
			if got != tc.want {
				t.Errorf("Login = %q, want %q", got, tc.want)
			}
			if tc.want == "" && err == nil {
				t.Errorf("Login gave no error with no operator")
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("Login error = %v, want %v", err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), token) {
				t.Errorf("the error carries the token: %v", err)
			}
			reqs := api.seen()
			if len(reqs) != 1 || reqs[0].Host != "api.github.com" || reqs[0].Path != "/user" || reqs[0].Authorization != "token "+token {
				t.Errorf("requests = %+v, want one GET api.github.com/user with the token", reqs)
			}
		})
	}
}

func TestLoginWithoutTokenAsksNobody(t *testing.T) {
	api := newFakeAPI(t, user(`{"login":"octocat","type":"User"}`))
	got, err := Login(context.Background(), Options{Transport: api})
	if got != "" || !errors.Is(err, ErrNoToken) {
		t.Errorf("Login = %q, %v; want none, ErrNoToken", got, err)
	}
	if reqs := api.seen(); len(reqs) != 0 {
		t.Errorf("the API saw %d requests, want none", len(reqs))
	}
}

func TestLoginHostFromGHHost(t *testing.T) {
	api := newFakeAPI(t, user(`{"login":"Mona_Acme","type":"User"}`))
	t.Setenv("GH_HOST", "git.example.test")
	t.Setenv("GH_ENTERPRISE_TOKEN", token)
	t.Setenv("GH_TOKEN", "not-for-enterprise")
	start := time.Now()
	got, err := Login(context.Background(), Options{Transport: api})
	skipIfTimedOut(t, start)
	if got != "mona_acme" || err != nil {
		t.Errorf("Login = %q, %v; want mona_acme", got, err)
	}
	reqs := api.seen()
	if len(reqs) != 1 || reqs[0].Host != "git.example.test" || reqs[0].Path != "/api/v3/user" {
		t.Errorf("requests = %+v, want one to git.example.test/api/v3/user", reqs)
	}
}

// TestLoginHangingServerTimesOut: a server that never answers is given
// up at the timeout, the request cancelled; the server is never let go,
// so a Login that did not give up would run into the test's timeout.
func TestLoginHangingServerTimesOut(t *testing.T) {
	release := make(chan struct{})
	cancelled := make(chan bool, 1)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
			cancelled <- false
		case <-r.Context().Done():
			cancelled <- true
		}
	})
	defer close(release)
	t.Setenv("GH_TOKEN", token)
	got, err := Login(context.Background(), Options{Transport: api})
	if got != "" || !errors.Is(err, ErrTimeout) {
		t.Errorf("Login = %q, %v; want none and %v", got, err, ErrTimeout)
	}
	if !<-cancelled {
		t.Error("the request was not cancelled")
	}
}

func TestLoginDoesNotFollowRedirects(t *testing.T) {
	var other []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other = append(other, r.Header.Get("Authorization"))
	}))
	defer elsewhere.Close()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/user", http.StatusFound)
	})
	t.Setenv("GH_TOKEN", token)
	if got, err := Login(context.Background(), Options{Transport: api}); got != "" || err == nil {
		t.Errorf("Login = %q, %v; want none and an error", got, err)
	}
	if len(other) != 0 {
		t.Errorf("the redirect was followed: %d requests elsewhere", len(other))
	}
}

func TestLoginNeverLogs(t *testing.T) {
	api := newFakeAPI(t, user(`{"login":"octocat","type":"User"}`))
	t.Setenv("GH_TOKEN", token)
	t.Setenv("GH_DEBUG", "api")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	start := time.Now()
	got, lerr := Login(context.Background(), Options{Transport: api})
	os.Stderr = stderr
	skipIfTimedOut(t, start)
	w.Close()
	logged, _ := io.ReadAll(r)
	if got != "octocat" || lerr != nil {
		t.Errorf("Login = %q, %v; want octocat", got, lerr)
	}
	if len(logged) != 0 {
		t.Errorf("GH_DEBUG=api logged %d bytes: %q", len(logged), logged)
	}
}

// TestDefaultTransportUsesTheEnvironment pins what the lookup relies on
// for proxies: with no Transport, go-gh sends through http.DefaultTransport,
// whose proxy comes from HTTPS_PROXY and NO_PROXY. (Certificates from
// SSL_CERT_FILE are checked end to end by the hook's tests.)
func TestDefaultTransportUsesTheEnvironment(t *testing.T) {
	tr, ok := http.DefaultTransport.(*http.Transport)
	if !ok || tr.Proxy == nil {
		t.Fatalf("http.DefaultTransport is %T with no proxy function", http.DefaultTransport)
	}
	if reflect.ValueOf(tr.Proxy).Pointer() != reflect.ValueOf(http.ProxyFromEnvironment).Pointer() {
		t.Errorf("http.DefaultTransport's proxy is not http.ProxyFromEnvironment")
	}
}

func TestRunUsage(t *testing.T) {
	var out, errOut strings.Builder
	if code := Run([]string{"--bogus"}, &out, &errOut); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "usage:") {
		t.Errorf("Run(--bogus) = %d, stdout %q, stderr %q; want 2, nothing, usage", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := Run([]string{"-v"}, &out, &errOut); code != 1 || out.Len() != 0 || !strings.Contains(errOut.String(), "no GitHub token") {
		t.Errorf("Run(-v) with no token = %d, stdout %q, stderr %q; want 1, nothing, the reason", code, out.String(), errOut.String())
	}
}

// -v prints why there is no operator in Login's own words, never what
// the host, a proxy or the network said: a host that echoes the token in
// its body, in a header, in a redirect, in any encoding, gets none of it
// printed, so there is nothing to redact (issue 31, class 6; issue 20's
// redaction missed 25 of 42 encodings).
func TestRunVerbosePrintsNothingTheHostSaid(t *testing.T) {
	forms := tokenForms(token)
	echo := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			auth := r.Header.Get("Authorization")
			for i, f := range forms {
				w.Header().Set(fmt.Sprintf("X-Echo-%d", i), f)
			}
			w.Header().Set("Location", "https://elsewhere.test/?t="+url.QueryEscape(token))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"message":"proxy refused Authorization: %s","forms":%q,"login":"%s","type":"%s"}`, auth, strings.Join(forms, " "), token, token)
		}
	}
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"502 echoing", echo(http.StatusBadGateway), "GitHub answered HTTP 502"},
		{"401 echoing", echo(http.StatusUnauthorized), "GitHub answered HTTP 401"},
		{"a redirect echoing", echo(http.StatusFound), "GitHub answered HTTP 302"},
		{"200 echoing, not a user", echo(http.StatusOK), "the token's account is not a user"},
		{"200 of garbage echoing", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<html>"+strings.Join(forms, "\n"))
		}, "GitHub's answer is not a user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testOnlyOptions = Options{Transport: newFakeAPI(t, tc.handler), Token: token}
			defer func() { testOnlyOptions = Options{} }()
			var out, errOut strings.Builder
			start := time.Now()
			code := Run([]string{"-v"}, &out, &errOut)
			skipIfTimedOut(t, start)
			if want := "context-budget-operator: no operator: " + tc.want + "\n"; code != 1 || errOut.String() != want {
				t.Fatalf("Run(-v) = %d, stderr %q; want 1, %q", code, errOut.String(), want)
			}
			for _, f := range forms {
				if strings.Contains(errOut.String(), f) {
					t.Errorf("-v printed a form of the token (%q)", f)
				}
			}
		})
	}
	// A request that gets no answer says so in its own words too.
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	testOnlyOptions = Options{Transport: deadTransport{dead.URL}, Token: token}
	defer func() { testOnlyOptions = Options{} }()
	var out, errOut strings.Builder
	if code := Run([]string{"-v"}, &out, &errOut); code != 1 || errOut.String() != "context-budget-operator: no operator: the request to GitHub failed\n" {
		t.Errorf("no answer: %d, %q", code, errOut.String())
	}
}

// deadTransport sends every request to a closed server.
type deadTransport struct{ url string }

func (d deadTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	u, _ := url.Parse(d.url)
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// tokenForms is the token in the encodings a host or a proxy could echo
// it in.
func tokenForms(tok string) []string {
	b := []byte(tok)
	basic := []byte("x-access-token:" + tok)
	var html strings.Builder
	for _, c := range tok {
		fmt.Fprintf(&html, "&#%d;", c)
	}
	return []string{tok, tok[4:16], strings.ToUpper(tok), url.QueryEscape(tok), url.PathEscape(tok),
		base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
		base64.URLEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
		base64.StdEncoding.EncodeToString(basic), base64.RawStdEncoding.EncodeToString(basic),
		hex.EncodeToString(b), strings.ToUpper(hex.EncodeToString(b)), html.String()}
}
