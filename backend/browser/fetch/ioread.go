package fetch

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/go-rod/rod/lib/cdp"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/posted"
)

// Draining a browser-side stream (IO.read on a Fetch.takeResponseBodyAsStream
// or IO.resolveBlob handle) fast.
//
// Measured (backend/browser/README.md, "Throughput"): Chromium's cost per IO.read grows faster
// than the chunk: 256 KiB reads cost the browser about half the CPU per byte
// of 4–32 MiB reads, and a stream whose bytes arrive from the network hands
// out only what it holds (≈ 130–400 KiB per read), so a read waiting for its
// round trip leaves the browser idle. ioReader therefore keeps several small
// reads in flight (posted, see package posted: the next read is on its way before the
// last is decoded) and decodes each reply's base64 straight from the message
// (one pass, into a buffer it reuses), never through rod's JSON decoding,
// which scans a reply three times.

const (
	// streamChunk is the default size of one IO.read of a streaming way.
	streamChunk = 256 << 10
	// streamDepth is how many IO.read calls are in flight at once.
	streamDepth = 8
	// maxStreamChunk keeps one reply (base64: 4/3 of the chunk) well under
	// Chromium's 256 MB cap on a message.
	maxStreamChunk = 64 << 20
)

// ioReader drains one IO stream handle of the page in order. It is not safe
// for concurrent use.
type ioReader struct {
	p      *browser.Page
	ctx    context.Context
	handle string
	size   int
	depth  int

	inflight []posted.Call
	buf      []byte // the last chunk, decoded; reused by the next read
	eof      bool
}

// newIOReader reads handle in chunks of size bytes (0: streamChunk) with
// depth reads in flight (0: streamDepth).
func newIOReader(ctx context.Context, p *browser.Page, handle string, size, depth int) *ioReader {
	if size <= 0 {
		size = streamChunk
	}
	if depth <= 0 {
		depth = streamDepth
	}
	return &ioReader{p: p, ctx: ctx, handle: handle, size: min(size, maxStreamChunk), depth: depth}
}

// next returns the next chunk of the stream (valid until the next call) and
// whether it is the last. Errors are envelopes as for Page.Exec.
func (r *ioReader) next() ([]byte, bool, error) {
	if r.eof {
		return nil, true, nil
	}
	const op = "read the response body"
	if err := r.p.Err(); err != nil {
		return nil, false, r.p.Failure(r.ctx, op, err)
	}
	for len(r.inflight) < r.depth {
		call, err := r.p.PostRaw("IO.read", map[string]any{"handle": r.handle, "size": r.size})
		if err != nil {
			return nil, false, r.p.Failure(r.ctx, op, err)
		}
		r.inflight = append(r.inflight, call)
	}
	call := r.inflight[0]
	r.inflight = r.inflight[1:]
	var rep posted.Reply
	select {
	case rep = <-call.Reply:
	case <-r.ctx.Done():
		r.forget(call)
		return nil, false, r.p.Failure(r.ctx, op, r.ctx.Err())
	case <-r.p.Done():
		r.forget(call)
		return nil, false, r.p.Failure(r.ctx, op, r.p.Err())
	}
	if err := rep.Err(); err != nil {
		return nil, false, r.p.Failure(r.ctx, op, err)
	}
	data, eof, err := decodeIOReadRaw(rep.Raw, r.buf[:0])
	if err != nil {
		return nil, false, r.p.Failure(r.ctx, op, err)
	}
	r.buf = data
	if eof {
		// The reads posted after the last one answer "eof" too; nobody
		// waits for them.
		r.eof = true
		r.close()
	}
	return data, eof, nil
}

// forget drops call and every read still in flight: their replies are
// discarded when they come.
func (r *ioReader) forget(call posted.Call) {
	call.Forget()
	r.close()
}

// close drops the reads still in flight.
func (r *ioReader) close() {
	for _, c := range r.inflight {
		c.Forget()
	}
	r.inflight = nil
}

var ioDataKey = []byte(`"data":"`)

// ioReadHead is an IO.read reply, or its protocol error.
type ioReadHead struct {
	Result *struct {
		Base64Encoded bool   `json:"base64Encoded"`
		Data          string `json:"data"`
		EOF           bool   `json:"eof"`
	} `json:"result"`
	Error *cdp.Error `json:"error"`
}

// decodeIOReadRaw decodes a reply to IO.read (the whole message),
// appending the chunk to dst. The base64 text is decoded straight from the
// message; the rest, small, is decoded as JSON with the text cut out. A
// protocol error is a *cdp.Error, matched as rod's are.
func decodeIOReadRaw(msg []byte, dst []byte) ([]byte, bool, error) {
	if out, eof, ok, err := decodeIOReadFast(msg, dst); ok {
		return out, eof, err
	}
	// An escaped character, a text stream or a shape not seen before:
	// let JSON read it all.
	var head ioReadHead
	if err := json.Unmarshal(msg, &head); err != nil {
		return nil, false, fmt.Errorf("decode IO.read: %w", err)
	}
	if head.Error != nil {
		return nil, false, head.Error
	}
	if head.Result == nil {
		return nil, false, fmt.Errorf("decode IO.read: no result")
	}
	if !head.Result.Base64Encoded {
		return append(dst, head.Result.Data...), head.Result.EOF, nil
	}
	return decodeBase64Into(dst, []byte(head.Result.Data), head.Result.EOF)
}

// decodeIOReadFast is decodeIOReadRaw for a reply whose data is plain
// base64 (as Chromium writes it); ok is false for anything else.
func decodeIOReadFast(msg []byte, dst []byte) (out []byte, eof, ok bool, err error) {
	i := bytes.Index(msg, ioDataKey)
	if i < 0 {
		return nil, false, false, nil
	}
	start := i + len(ioDataKey)
	j := bytes.IndexByte(msg[start:], '"')
	if j < 0 {
		return nil, false, false, nil
	}
	text := msg[start : start+j]
	if bytes.IndexByte(text, '\\') >= 0 {
		return nil, false, false, nil
	}
	rest := make([]byte, 0, len(msg)-len(text))
	rest = append(append(rest, msg[:start]...), msg[start+j:]...)
	var head ioReadHead
	if json.Unmarshal(rest, &head) != nil {
		return nil, false, false, nil
	}
	if head.Error != nil {
		return nil, false, true, head.Error
	}
	if head.Result == nil || !head.Result.Base64Encoded {
		return nil, false, false, nil
	}
	out, eof, err = decodeBase64Into(dst, text, head.Result.EOF)
	return out, eof, true, err
}

// decodeBase64Into appends the bytes of the base64 text to dst.
func decodeBase64Into(dst, text []byte, eof bool) ([]byte, bool, error) {
	n := base64.StdEncoding.DecodedLen(len(text))
	if cap(dst)-len(dst) < n {
		grown := make([]byte, len(dst), len(dst)+n)
		copy(grown, dst)
		dst = grown
	}
	m, err := base64.StdEncoding.Decode(dst[len(dst):len(dst)+n], text)
	if err != nil {
		return nil, false, fmt.Errorf("decode IO.read data: %w", err)
	}
	return dst[:len(dst)+m], eof, nil
}
