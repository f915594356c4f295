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
// to. Any failure is an error and means no operator; the error never
// carries the token.
func Login(ctx context.Context, o Options) (login string, err error) {
	// A host or a proxy may echo the request, its Authorization header
	// included, in an error message that ends up in the error.
	defer func() { err = redactErr(err, o.Token) }()
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
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	resp, err := client.RequestWithContext(ctx, http.MethodGet, "user", nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET user: status %d", resp.StatusCode)
	}
	var u struct {
		Login string `json:"login"`
		Type  string `json:"type"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(&u); err != nil {
		return "", fmt.Errorf("GET user: %w", err)
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
