// Package gh finds who the operator of a session is: the GitHub user
// of the session's token (design §7). It is the only package that imports
// github.com/cli/go-gh/v2, and so the only one that links net/http; the
// hook never imports it but runs the context-budget-operator command,
// built from this package, in a child process (package operator, above
// this one, is what the hook links) when a notice is about to
// fire.
//
// The lookup behaves like gh on the network: the host, the token and a
// Unix socket come from gh's own variables and configuration (GH_HOST,
// GH_TOKEN, GITHUB_TOKEN, GH_ENTERPRISE_TOKEN, GH_CONFIG_DIR, the gh
// login), and requests go through net/http's default transport, which
// honours HTTPS_PROXY and NO_PROXY and, on Linux and the BSDs, the
// certificate files named by SSL_CERT_FILE and SSL_CERT_DIR. The token is
// attached only to requests for the GitHub host and its subdomains, and
// redirects are not followed, so it never travels elsewhere.
package gh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/cli/go-gh/v2/pkg/api"
	"github.com/cli/go-gh/v2/pkg/auth"

	"github.com/muthur/context-budget/internal/operator"
)

// Timeout bounds the whole request, body included (design §7: at most
// 1.5 s).
const Timeout = 1500 * time.Millisecond

// maxBody bounds what is read of the /user answer; a real one is a few KB.
const maxBody = 1 << 20

// ErrNoToken reports that no token was found for the host.
var ErrNoToken = errors.New("no GitHub token")

// ErrNotUser reports a token whose account is not a person: a bot, an
// app, an organisation.
var ErrNotUser = errors.New("the token's account is not a user")

// ErrLogin reports a login that cannot be used as a file name.
var ErrLogin = errors.New("the login is not a plain name")

// ErrRequest reports a request that got no answer: the network, a proxy,
// a certificate, the host's name. ErrTimeout reports one that ran out of
// time. ErrAnswer reports an answer that is not a user's.
var (
	ErrRequest = errors.New("the request to GitHub failed")
	ErrTimeout = errors.New("the request to GitHub timed out")
	ErrAnswer  = errors.New("GitHub's answer is not a user")
)

// StatusError reports an answer with a status other than 200.
type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("GitHub answered HTTP %d", e.Code) }

// Options configure a lookup.
type Options struct {
	// Host is the GitHub host, e.g. "github.com"; empty means gh's
	// default (GH_HOST, else the one host gh is logged in to, else
	// github.com).
	Host string
	// Token is the token to send; empty means gh's token for Host
	// (GH_TOKEN, GITHUB_TOKEN, the enterprise variables, gh's login).
	Token string
	// Transport makes the requests; nil means net/http's default
	// transport. Tests inject one.
	Transport http.RoundTripper
	// Timeout bounds the request; 0 or more than Timeout means Timeout.
	Timeout time.Duration
}

// Login returns the lowercased login of the GitHub user the token belongs
// to. Any failure is an error and means no operator. The error is one of
// this package's, whose text is fixed (a *StatusError adds the status):
// never what a host, a proxy or the network said, which could echo the
// request's headers, the token among them, or the answer's body. So
// nothing printed of it has anything to redact.
func Login(ctx context.Context, o Options) (login string, err error) {
	if o.Host == "" {
		o.Host, _ = auth.DefaultHost()
	}
	if o.Token == "" {
		o.Token, _ = auth.TokenForHost(o.Host)
	}
	if o.Token == "" {
		return "", ErrNoToken
	}
	if o.Timeout <= 0 || o.Timeout > Timeout {
		o.Timeout = Timeout
	}
	client, err := api.NewRESTClient(api.ClientOptions{
		Host:      o.Host,
		AuthToken: o.Token,
		Transport: o.Transport,
		Timeout:   o.Timeout,
		// Whatever GH_DEBUG says: a request log could show headers.
		LogIgnoreEnv: true,
		// GET /user does not redirect; one that does is not followed, so
		// the token cannot be carried to another host.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	})
	if err != nil {
		return "", ErrRequest
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	resp, err := client.RequestWithContext(ctx, http.MethodGet, "user", nil)
	if resp != nil {
		defer resp.Body.Close()
	}
	var he *api.HTTPError
	switch {
	case resp != nil && resp.StatusCode != http.StatusOK:
		return "", &StatusError{resp.StatusCode}
	case errors.As(err, &he):
		return "", &StatusError{he.StatusCode}
	case err != nil && (ctx.Err() != nil || isTimeout(err)):
		return "", ErrTimeout
	case err != nil:
		return "", ErrRequest
	}
	var u struct {
		Login string `json:"login"`
		Type  string `json:"type"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(&u); err != nil {
		return "", ErrAnswer
	}
	if u.Type != "User" {
		return "", ErrNotUser
	}
	login = strings.ToLower(u.Login)
	if !operator.PlainLogin(login) {
		return "", ErrLogin
	}
	return login, nil
}

// isTimeout reports whether a request's error is a timeout.
func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
