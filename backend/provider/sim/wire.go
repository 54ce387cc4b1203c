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

// flusher writes stream frames and pushes them to the client at once.
type flusher struct {
	w http.ResponseWriter
	f http.Flusher
}

func newFlusher(w http.ResponseWriter) *flusher {
	f, _ := w.(http.Flusher)
	return &flusher{w: w, f: f}
}

func (f *flusher) write(s string) {
	_, _ = io.WriteString(f.w, s)
	if f.f != nil {
		f.f.Flush()
	}
}

func (f *flusher) writeBytes(b []byte) {
	_, _ = f.w.Write(b)
	if f.f != nil {
		f.f.Flush()
	}
}

// sleep waits d or until ctx ends; it reports whether the stream may go on.
func sleep(ctx context.Context, d time.Duration) bool {
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

// abortStream resets the connection mid-response (HTTP/2 RST_STREAM, or a
// closed HTTP/1 connection): the client sees a network error, not an end.
func abortStream() { panic(http.ErrAbortHandler) }

func newUUID() string {
	b := randomBytes(16)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return fmt.Sprintf("%s-%s-%s-%s-%s", h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])
}

func writeJSONResponse(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if ov, ok := v.(obj); ok {
		_, _ = io.WriteString(w, compactJSON(ov))
		return
	}
	_ = json.NewEncoder(w).Encode(v)
}

// cutIndex is where stream_cut and error scenarios stop, in chunks.
func cutIndex(sc Scenario, n int) int {
	f := sc.float("cut_at", 0.5)
	k := int(float64(n) * f)
	return max(1, min(k, n-1))
}
