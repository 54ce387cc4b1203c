package provider

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// Turn is one submitted prompt: the answer stream being captured (when the
// site has one) and what the page showed. Close it when done.
type Turn struct {
	Prompt string
	SentAt time.Time

	page    *browser.Page
	capture *browser.Capture

	mu          sync.Mutex
	decoderName string
	dec         stream.Decoder
	reqID       string
	status      int
	started     bool
	ended       bool
	endErr      error
	bytes       int
	refused     []byte // the body of a response with an error status, up to maxRefusal
	request     []byte // the body the turn's request was sent with, when the browser gave it
	// A turn handed off to the page's socket (stream.SocketReader): the
	// items taken from it, and when the last came (or the response ended).
	socketItems int
	socketAt    time.Time
	notify      chan struct{}

	source         string // "stream" or "dom" once complete
	completeReason string
	domText        string
	domSlug        string
}

// RequestNames reports whether the turn's request was seen with its body
// (seen), and whether that JSON body lists value among the strings of one
// of its arrays (ChatGPT's system_hints: "search"): the proof that the send
// carried a tool.
func (t *Turn) RequestNames(value string) (seen, named bool) {
	t.mu.Lock()
	body := t.request
	t.mu.Unlock()
	var v any
	if len(body) == 0 || json.Unmarshal(body, &v) != nil {
		return false, false
	}
	return true, stream.Lists(v, value)
}

// Found reports whether t is a turn a reattach found in the page
// (FindTurn) rather than one sent here: no stream of it is captured.
func (t *Turn) Found() bool { return t != nil && t.capture == nil }

// Close stops the stream capture.
func (t *Turn) Close() {
	if t != nil && t.capture != nil {
		t.capture.Stop()
	}
}

// Stream returns the decoded stream so far and whether a stream response was
// seen at all.
func (t *Turn) Stream() (stream.Result, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dec == nil || !t.started {
		return stream.Result{}, false
	}
	return t.dec.Result(), true
}

// Source says how the turn's completion was seen: "stream" or "dom".
func (t *Turn) Source() string { return t.source }

// DOMText is the answer text the page showed when the turn completed.
func (t *Turn) DOMText() string { return t.domText }

// DOMSlug is the model named by the page on the answer, when it names one.
func (t *Turn) DOMSlug() string { return t.domSlug }

// Transport says how the turn's completion was seen, with partials counted
// by the caller (the transport proof of a Result).
func (t *Turn) Transport(partials int) Transport {
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := Transport{Source: t.source, CompleteReason: t.completeReason, Partials: partials, SocketItems: t.socketItems}
	if t.source == "stream" {
		tr.Decoder, tr.StreamBytes = t.decoderName, t.bytes
	}
	if t.dec != nil && t.started {
		tr.HandedOff = t.dec.Result().Handoff
	}
	return tr
}

func (t *Turn) sink(s site.Site) browser.Sink {
	return func(ev browser.StreamEvent) {
		t.mu.Lock()
		defer func() {
			t.mu.Unlock()
			select {
			case t.notify <- struct{}{}:
			default:
			}
		}()
		switch ev.Kind {
		case browser.StreamStart:
			// The first matching response is the turn's; a later one (a
			// regenerate) is not.
			if t.reqID == "" && s.CaptureMatches(ev.Method, ev.URL) {
				t.reqID, t.status, t.started = ev.RequestID, ev.Status, true
				t.request = ev.RequestBody
			}
		case browser.StreamData:
			if ev.RequestID == t.reqID {
				t.bytes += len(ev.Data)
				_, _ = t.dec.Write(ev.Data)
				if t.status >= 400 && len(t.refused) < maxRefusal {
					t.refused = append(t.refused, ev.Data[:min(len(ev.Data), maxRefusal-len(t.refused))]...)
				}
			}
		case browser.StreamEnd:
			if ev.RequestID == t.reqID && !t.ended {
				t.ended, t.endErr = true, ev.Err
				t.socketAt = time.Now()
				_ = t.dec.Close()
			}
		case browser.SocketMessage:
			// Only a started turn can have been handed off; the decoder
			// keeps what comes before the handoff names the turn's topic.
			if sr, ok := t.dec.(stream.SocketReader); ok && t.started {
				if n := sr.WriteSocket(ev.Data); n > 0 {
					t.socketItems += n
					t.bytes += len(ev.Data)
					t.socketAt = time.Now()
				}
			}
		}
	}
}

// maxRefusal bounds the body of a refused send that a turn keeps: an error
// body is short, and a decoder reads it whole.
const maxRefusal = 64 << 10

type streamState struct {
	res     stream.Result
	started bool
	ended   bool
	// socketQuiet is how long a handed-off turn has had nothing from the
	// page's socket (since the response ended or the last item came), and
	// socketItems how many of its items came.
	socketQuiet time.Duration
	socketItems int
	status      int
	endErr      error
	refusal     *errs.Envelope // what the decoder read from a refused send's whole body
}

func (t *Turn) snapshot() streamState {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := streamState{started: t.started, ended: t.ended, status: t.status, endErr: t.endErr}
	if t.ended {
		st.socketQuiet, st.socketItems = time.Since(t.socketAt), t.socketItems
	}
	if t.dec != nil {
		st.res = t.dec.Result()
		if rr, ok := t.dec.(stream.RefusalReader); ok && t.ended && t.status >= 400 {
			st.refusal = rr.Refusal(t.status, t.refused)
		}
	}
	return st
}
