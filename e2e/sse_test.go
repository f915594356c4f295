package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// sse writes one streamed Messages API response as server-sent events, in
// the order the real API sends them.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func (s sse) event(name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, b)
	if s.f != nil {
		s.f.Flush()
	}
}

// stream sends msg: message_start carrying the input usage, one
// start/delta/stop triple per content block, message_delta with the stop
// reason and the output usage, message_stop.
func stream(w http.ResponseWriter, msg response) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	s := sse{w, f}
	start := msg.envelope()
	start["content"] = []any{}
	start["stop_reason"] = nil
	start["usage"] = msg.usage.startJSON()
	s.event("message_start", map[string]any{"type": "message_start", "message": start})
	for i, b := range msg.blocks {
		if b.Tool != "" {
			s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Tool, "input": map[string]any{}}})
			in, _ := json.Marshal(b.Input)
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		} else {
			s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b.Text}})
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	// The CLI starts a tool as soon as its block is complete and writes
	// the transcript record only after message_stop: holding the end of
	// the stream makes the record lag the hook, as a slow stream does.
	time.Sleep(msg.hold)
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": msg.stopReason(), "stop_sequence": nil},
		"usage": msg.usage.deltaJSON()})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

// whole answers a request that did not ask for a stream with the same
// message as one JSON object.
func whole(w http.ResponseWriter, msg response) {
	m := msg.envelope()
	content := []any{}
	for _, b := range msg.blocks {
		if b.Tool != "" {
			content = append(content, map[string]any{"type": "tool_use", "id": b.ID, "name": b.Tool, "input": b.Input})
		} else {
			content = append(content, map[string]any{"type": "text", "text": b.Text})
		}
	}
	m["content"] = content
	m["stop_reason"] = msg.stopReason()
	u := msg.usage.startJSON()
	u["output_tokens"] = msg.usage.Output
	m["usage"] = u
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(m)
}
