package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Kind says which queue answered a request.
type Kind string

// The kinds of request the mock tells apart.
const (
	KindMain       Kind = "main"
	KindSubagent   Kind = "subagent"
	KindCompaction Kind = "compaction"
	KindOther      Kind = "other"
)

// Request is one request the mock received, kept whole: the assertions
// read what the model would have seen from here.
type Request struct {
	Method, Path, Query string
	Body                []byte
	Kind                Kind
	// Turn is the index in its queue of the scripted turn that answered, or
	// -1 when none did (a compaction, a request past the script, or not a
	// Messages request).
	Turn int
	// Served is the response the mock sent, when it sent one.
	Served *response
}

// Mock is a Messages API on 127.0.0.1 that answers from a Script.
type Mock struct {
	srv    *httptest.Server
	script Script

	mu         sync.Mutex
	reqs       []Request
	overloaded int
	main       int
	sub        int
	nextTool   int
	nextMsg    int
}

// NewMock starts a mock answering from s. Close it when done.
func NewMock(s Script) *Mock {
	m := &Mock{script: s}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	return m
}

// URL is the base URL for ANTHROPIC_BASE_URL.
func (m *Mock) URL() string { return m.srv.URL }

// Close stops the server.
func (m *Mock) Close() { m.srv.Close() }

// Requests returns a copy of every request received so far.
func (m *Mock) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.reqs...)
}

func (m *Mock) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: body, Turn: -1}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		m.messages(w, &req)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		// A rough count is enough: the CLI uses it for display and
		// budgeting, and the scenarios never depend on it.
		req.Kind = KindOther
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4+1)
	default:
		// Anything else (metrics, feature flags, account look-ups) is
		// nonessential traffic: say there is nothing here.
		req.Kind = KindOther
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"not served by the e2e mock"}}`)
	}
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
}

// messageRequest is the part of a Messages request the mock routes on.
type messageRequest struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	System   json.RawMessage `json:"system"`
	Messages []message       `json:"messages"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// contentBlock is one block of a message's content; tool_result content
// may be a string or a list of blocks.
type contentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// blocks decodes content that is either a string or a list of blocks.
func blocks(raw json.RawMessage) []contentBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []contentBlock{{Type: "text", Text: s}}
	}
	var bs []contentBlock
	json.Unmarshal(raw, &bs)
	return bs
}

func (m *Mock) messages(w http.ResponseWriter, req *Request) {
	var mr messageRequest
	if err := json.Unmarshal(req.Body, &mr); err != nil {
		req.Kind = KindOther
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	req.Kind = classify(mr)
	m.mu.Lock()
	var t Turn
	switch req.Kind {
	case KindCompaction:
		t = m.script.Summary
	case KindSubagent:
		if m.sub < len(m.script.Sub) {
			t, req.Turn = m.script.Sub[m.sub], m.sub
			m.sub++
		} else {
			t = Turn{Usage: at(20_000), Blocks: []Block{text("Subagent done.")}}
		}
	default:
		if m.overloaded < m.script.Overloaded {
			m.overloaded++
			m.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(529)
			io.WriteString(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
			return
		}
		if m.main < len(m.script.Main) {
			t, req.Turn = m.script.Main[m.main], m.main
			m.main++
		} else {
			t = Turn{Usage: at(20_000), Blocks: []Block{text("Done.")}}
		}
	}
	resp := response{model: mr.Model, usage: t.Usage, hold: t.Hold}
	if resp.model == "" {
		resp.model = "claude-opus-4-6"
	}
	m.nextMsg++
	resp.id = fmt.Sprintf("msg_e2e%04d", m.nextMsg)
	for _, b := range t.Blocks {
		if b.Tool != "" {
			m.nextTool++
			b.ID = toolID(m.nextTool)
		}
		resp.blocks = append(resp.blocks, b)
	}
	req.Served = &resp
	m.mu.Unlock()
	if mr.Stream {
		stream(w, resp)
	} else {
		whole(w, resp)
	}
}

// compactionPrefix opens the last user text of the CLI's summarisation
// request.
const compactionPrefix = "CRITICAL: Respond with TEXT ONLY"

// subagentMark is in the system prompt of a subagent's requests.
const subagentMark = "cc_is_subagent=true"

func classify(mr messageRequest) Kind {
	if n := len(mr.Messages); n > 0 && mr.Messages[n-1].Role == "user" {
		for _, b := range blocks(mr.Messages[n-1].Content) {
			if b.Type == "text" && strings.HasPrefix(strings.TrimSpace(b.Text), compactionPrefix) {
				return KindCompaction
			}
		}
	}
	if strings.Contains(string(mr.System), subagentMark) {
		return KindSubagent
	}
	return KindMain
}
