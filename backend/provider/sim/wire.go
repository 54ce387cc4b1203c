package sim

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Flusher writes stream frames and pushes them to the client at once.
type Flusher struct {
	w http.ResponseWriter
	f http.Flusher
}

// NewFlusher returns a Flusher for w.
func NewFlusher(w http.ResponseWriter) *Flusher {
	f, _ := w.(http.Flusher)
	return &Flusher{w: w, f: f}
}

// Write writes s and flushes it.
func (f *Flusher) Write(s string) {
	_, _ = io.WriteString(f.w, s)
	if f.f != nil {
		f.f.Flush()
	}
}

// WriteBytes writes b and flushes it.
func (f *Flusher) WriteBytes(b []byte) {
	_, _ = f.w.Write(b)
	if f.f != nil {
		f.f.Flush()
	}
}

// Sleep waits d or until ctx ends; it reports whether the stream may go on.
func Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// AbortStream resets the connection mid-response (HTTP/2 RST_STREAM, or a
// closed HTTP/1 connection): the client sees a network error, not an end.
func AbortStream() { panic(http.ErrAbortHandler) }

// NewUUID returns a random version 4 UUID.
func NewUUID() string {
	b := randomBytes(16)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return fmt.Sprintf("%s-%s-%s-%s-%s", h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])
}

// WriteJSON writes v as a JSON response with status (an Obj keeps its
// key order).
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if ov, ok := v.(Obj); ok {
		_, _ = io.WriteString(w, CompactJSON(ov))
		return
	}
	_ = json.NewEncoder(w).Encode(v)
}

// CutIndex is where stream_cut and error scenarios stop, in chunks.
func CutIndex(sc Scenario, n int) int {
	f := sc.Float("cut_at", 0.5)
	k := int(float64(n) * f)
	return max(1, min(k, n-1))
}
