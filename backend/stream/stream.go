// Package stream holds the registry of the answer-stream decoders of the AI
// chat sites and what they share: the Decoder contract and its Result, an
// SSE assembler, a line buffer, and the JSON-tree patching of delta formats.
// Each decoder lives in its site's folder (provider/<vendor>) and registers
// itself by name with Register from that package's init; provider/all links
// them all in.
//
// Every decoder is a pure state machine over bytes: no I/O, no clocks, no
// goroutines. Bytes arrive in chunks that may split anywhere (inside a line,
// a frame header or a multibyte character); a decoder only acts on complete
// units, so the result after the same bytes is the same however they were
// chunked. After each Write, Result says the answer text so far, whether the
// turn is complete and why, which model answered, and any error the site
// reported in the stream.
package stream

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Result is the decoded state of one turn. It is a value: later writes do not
// change a Result already returned.
type Result struct {
	// Text is the answer so far (for ChatGPT with citation markers turned
	// into Markdown links, or removed when nothing says what they cite).
	Text string `json:"text"`
	// Complete is true only when the stream proved that the turn finished
	// (ChatGPT message_stream_complete, DeepSeek status FINISHED, Grok's
	// final response, Claude message_stop, Kimi done, Gemini status 2).
	Complete bool `json:"complete"`
	// Ended is true when the stream itself ended: a terminal marker such as
	// ChatGPT's [DONE] or DeepSeek's close event arrived, or Close was
	// called. Ended without Complete means the turn is not proven finished.
	Ended bool `json:"ended"`
	// FinishReason is the site's reason for the end of the turn when it gave
	// one ("stop", "interrupted", "FINISHED", "end_turn", ...).
	FinishReason string `json:"finishReason,omitempty"`
	// Model is the model that answered, as the stream reported it.
	Model string `json:"model,omitempty"`
	// ModelSource names the field Model came from, for the model proof.
	ModelSource string `json:"modelSource,omitempty"`
	// Rerouted is the model the turn was sent to when the stream says
	// another (Model) answered it: the site's silent downgrade (ChatGPT's
	// model_slug beside a different resolved_model_slug).
	Rerouted string `json:"rerouted,omitempty"`
	// ConversationID is the site's id of the conversation, when sent.
	ConversationID string `json:"conversationId,omitempty"`
	// MessageID is the site's id of the answer message, when sent.
	MessageID string `json:"messageId,omitempty"`
	// Title is the conversation title the site generated, when sent.
	Title string `json:"title,omitempty"`
	// Handoff is true when ChatGPT said the rest of the turn continues over
	// the page's WebSocket (stream_handoff): the response ends without
	// completing the turn, and a SocketReader follows it on the socket.
	Handoff bool `json:"handoff,omitempty"`
	// Images are the addresses of the images the turn generated, when the
	// stream names them (Gemini's), in order.
	Images []string `json:"images,omitempty"`
	// Err is the error the site reported in the stream, as an envelope
	// (ConversationTooLong, RateLimited, UsageCap, GenerationError, ...).
	Err *errs.Envelope `json:"error,omitempty"`
	// Malformed counts units (lines, frames) that could not be decoded and
	// were skipped.
	Malformed int `json:"malformed,omitempty"`
}

// Decoder is an incremental stream decoder. Write never fails: undecodable
// units are counted in Result.Malformed and skipped, and errors reported by
// the site go to Result.Err. A Decoder is not safe for concurrent use.
type Decoder interface {
	// Write feeds the next chunk of the response body. It always returns
	// len(p), nil (it satisfies io.Writer).
	Write(p []byte) (int, error)
	// Close marks the end of the body: a trailing unit without its
	// terminator is decoded, and Result.Ended becomes true. Close returns nil.
	Close() error
	// Result returns the state decoded so far.
	Result() Result
}

var (
	regMu        sync.RWMutex
	constructors = map[string]func() Decoder{}
)

// Register makes the decoder built by newDecoder available under name, the
// name a site's stream settings give (site.StreamCapture.Decoder). It is
// meant for the init functions of the vendor packages (provider/<vendor>):
// an empty name, a nil constructor or a name registered twice is a
// programming error and panics.
func Register(name string, newDecoder func() Decoder) {
	if name == "" || newDecoder == nil {
		panic("stream: Register needs a decoder name and a constructor")
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := constructors[name]; dup {
		panic(fmt.Sprintf("stream: decoder %q registered twice", name))
	}
	constructors[name] = newDecoder
}

// Names lists the registered decoder names in sorted order.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(constructors))
	for n := range constructors {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// New returns a fresh decoder by name. An unknown name is an errs.BadInput
// envelope that lists the known names.
func New(name string) (Decoder, error) {
	regMu.RLock()
	c, ok := constructors[name]
	regMu.RUnlock()
	if !ok {
		return nil, errs.New(errs.BadInput, "unknown stream decoder %q", name).
			WithHint("use one of: %s", strings.Join(Names(), ", "))
	}
	return c(), nil
}

// Decode runs the named decoder over a whole body and returns the result
// after Close.
func Decode(name string, body []byte) (Result, error) {
	d, err := New(name)
	if err != nil {
		return Result{}, fmt.Errorf("decode stream: %w", err)
	}
	_, _ = d.Write(body)
	_ = d.Close()
	return d.Result(), nil
}

// Clip shortens a site's message for evidence to at most n bytes, on a
// character boundary.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Delta compares two successive Result texts for a partial-text event: added
// is what cur adds to prev; rewritten is true when cur does not extend prev
// (Grok's full text replacing its tokens, a citation span closing), in which
// case the event should carry all of cur.
func Delta(prev, cur string) (added string, rewritten bool) {
	if len(cur) >= len(prev) && cur[:len(prev)] == prev {
		return cur[len(prev):], false
	}
	return cur, true
}
