package gemini

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream"
)

// DecoderName is the name the decoder registers under, as a site's stream
// settings give it.
const DecoderName = "gemini-frames"

// Decoder decodes gemini.google.com's StreamGenerate response: the
// anti-JSON prefix ")]}'", then frames "<length>\n<json>\n" whose length
// counts UTF-16 code units (JavaScript string length) from the newline after
// the digits through the newline after the JSON. Each frame holds envelopes
// ["wrb.fr", null, "<body json>"]; a body's first candidate carries the full
// text so far, and its status 2 marks the end of the turn.
type Decoder struct {
	buf       []byte
	prefixed  bool // the ")]}'" prefix question is settled
	broken    bool
	complete  bool
	ended     bool
	text      string
	model     string
	convID    string
	candID    string
	err       *errs.Envelope
	bad       int
	images    []string // the generated images' addresses
	bodyCount int
}

// NewDecoder returns a decoder for Gemini's StreamGenerate response.
func NewDecoder() *Decoder { return &Decoder{} }

// maxGeminiFrame bounds a frame's announced length (in UTF-16 units).
const maxGeminiFrame = 64 << 20

// Write implements Decoder.
func (d *Decoder) Write(p []byte) (int, error) {
	if d.broken {
		return len(p), nil
	}
	d.buf = append(d.buf, p...)
	d.parse(false)
	return len(p), nil
}

// Close implements Decoder.
func (d *Decoder) Close() error {
	if !d.broken {
		d.parse(true)
		if rest := bytes.TrimSpace(d.buf); len(rest) > 0 {
			// An unframed body (a plain JSON array) is still worth reading.
			if json.Valid(rest) {
				d.frame(rest)
			} else {
				d.bad++
			}
		}
	}
	d.buf = nil
	d.ended = true
	return nil
}

func (d *Decoder) parse(final bool) {
	const prefix = ")]}'"
	off := 0
	if !d.prefixed {
		if len(d.buf) < len(prefix) && bytes.HasPrefix([]byte(prefix), d.buf) && !final {
			return
		}
		if bytes.HasPrefix(d.buf, []byte(prefix)) {
			off = len(prefix)
		}
		d.prefixed = true
	}
	for {
		for off < len(d.buf) && isSpace(d.buf[off]) {
			off++
		}
		if off == len(d.buf) {
			break
		}
		digits := off
		for digits < len(d.buf) && d.buf[digits] >= '0' && d.buf[digits] <= '9' {
			digits++
		}
		if digits == len(d.buf) {
			break // the length line is not complete yet
		}
		if digits == off || digits-off > 9 || d.buf[digits] != '\n' {
			if final {
				break // leave it for Close's unframed attempt
			}
			if d.buf[off] == '[' || d.buf[off] == '{' {
				break // maybe an unframed body: wait for Close
			}
			d.bad++
			d.broken = true
			d.buf = nil
			return
		}
		n, _ := strconv.Atoi(string(d.buf[off:digits]))
		if n > maxGeminiFrame {
			d.bad++
			d.broken = true
			d.buf = nil
			return
		}
		end, ok := utf16Span(d.buf[digits:], n)
		if !ok {
			break // the frame is not complete yet
		}
		d.frame(bytes.TrimSpace(d.buf[digits : digits+end]))
		off = digits + end
	}
	if off > 0 {
		d.buf = append(d.buf[:0], d.buf[off:]...)
	}
}

// utf16Span returns how many bytes of b hold units UTF-16 code units, and
// false when b ends first (possibly inside a character).
func utf16Span(b []byte, units int) (int, bool) {
	i, u := 0, 0
	for u < units {
		if i >= len(b) {
			return 0, false
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 && !utf8.FullRune(b[i:]) {
			return 0, false
		}
		if r > 0xFFFF {
			u += 2
		} else {
			u++
		}
		i += size
	}
	return i, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func (d *Decoder) frame(chunk []byte) {
	if len(chunk) == 0 {
		return
	}
	var v any
	if err := json.Unmarshal(chunk, &v); err != nil {
		d.bad++
		return
	}
	envs, ok := v.([]any)
	if !ok {
		d.bad++
		return
	}
	for _, e := range envs {
		d.envelope(e)
	}
}

func (d *Decoder) envelope(e any) {
	if stream.Str(stream.Get(e, "0")) != "wrb.fr" {
		return // "di", "af.httprm", "e": bookkeeping
	}
	if status := stream.Get(e, "5"); status != nil {
		d.fail(errorCode(status))
		return
	}
	raw := stream.Str(stream.Get(e, "2"))
	if raw == "" {
		return
	}
	var body any
	if err := json.Unmarshal([]byte(raw), &body); err != nil {
		d.bad++
		return
	}
	d.bodyCount++
	if id := stream.Str(stream.Get(body, "1", "0")); id != "" {
		d.convID = id
	}
	if m := stream.Str(stream.Get(body, "42")); m != "" {
		d.model = m
	}
	cand := stream.Get(body, "4", "0")
	if cand == nil {
		return
	}
	if id := stream.Str(stream.Get(cand, "0")); id != "" {
		d.candID = id
	}
	if t, ok := stream.Get(cand, "1", "0").(string); ok {
		d.text = t
	}
	if s, ok := stream.Get(cand, "8", "0").(float64); ok && s == 2 {
		d.complete = true
	}
	// Generated images: candidate [12][7][0][*][0][3][3] (providers.md).
	if imgs, ok := stream.Get(cand, "12", "7", "0").([]any); ok {
		d.images = d.images[:0]
		for _, img := range imgs {
			if u := stream.Str(stream.Get(img, "0", "3", "3")); u != "" {
				d.images = append(d.images, u)
			}
		}
	}
}

// errorCode reads the code of a failed turn's status
// ([3, null, [["type.googleapis.com/assistant.boq.bard.application.BardErrorInfo", [1037]]]]):
// the code of its BardErrorInfo detail wherever the detail sits, else the
// status's own number (negated, so it can never read as a known code),
// else 0.
func errorCode(status any) int {
	details, _ := stream.Get(status, "2").([]any)
	for _, dt := range details {
		if strings.HasSuffix(stream.Str(stream.Get(dt, "0")), "BardErrorInfo") {
			if c, ok := stream.Get(dt, "1", "0").(float64); ok {
				return int(c)
			}
		}
	}
	if c, ok := stream.Get(status, "0").(float64); ok {
		return -int(c)
	}
	return 0
}

// fail maps Gemini's error codes: 1037 usage limit, 1052 model unavailable,
// 1060 requests from this address temporarily blocked.
func (d *Decoder) fail(code int) {
	if d.err != nil {
		return
	}
	if code <= 0 {
		d.err = errs.New(errs.GenerationError, "Gemini failed the turn (status %d) without naming an error", -code).
			WithEvidence("status", strconv.Itoa(-code))
		return
	}
	switch code {
	case 1037:
		d.err = errs.New(errs.UsageCap, "Gemini says the usage limit is reached")
	case 1052:
		d.err = errs.New(errs.ModelUnavailable, "Gemini says the model is not available")
	case 1060:
		d.err = errs.New(errs.RateLimited, "Gemini temporarily blocked requests from this network").
			WithHint("wait a while before retrying, or switch network; open Gemini in the browser to check")
	default:
		d.err = errs.New(errs.GenerationError, "Gemini failed the turn with error %d", code)
	}
	d.err.WithEvidence("error_code", strconv.Itoa(code))
}

// Result implements Decoder.
func (d *Decoder) Result() stream.Result {
	r := stream.Result{
		Text: d.text, Complete: d.complete, Ended: d.ended, ConversationID: d.convID,
		MessageID: d.candID, Err: d.err, Malformed: d.bad, Images: append([]string(nil), d.images...),
	}
	if d.complete {
		r.FinishReason = "status 2"
	}
	if d.model != "" {
		r.Model, r.ModelSource = d.model, "body[42]"
	}
	return r
}

var _ stream.Decoder = (*Decoder)(nil)
