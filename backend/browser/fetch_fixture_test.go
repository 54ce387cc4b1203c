package browser

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// streamParts is what /stream sends, flush by flush: "é" (C3 A9) and "🚢"
// (F0 9F 9A A2) are split across flushes, as a network chunk may split them.
var streamParts = [][]byte{
	[]byte("data: {\"v\":\"h\xc3"),
	[]byte("\xa9llo \xf0\x9f"),
	[]byte("\x9a\xa2\"}\n\n"),
	[]byte("data: [DONE]\n\n"),
}

// gates hold /stream?gate=NAME before its last part until the test opens
// the gate, to prove chunks are delivered while the response is still open.
var (
	gatesMu sync.Mutex
	gates   = map[string]chan struct{}{}
)

func gate(name string) chan struct{} {
	gatesMu.Lock()
	defer gatesMu.Unlock()
	g, ok := gates[name]
	if !ok {
		g = make(chan struct{})
		gates[name] = g
	}
	return g
}

// body returns n deterministic pseudo-random bytes (incompressible, every
// byte value present) for the fetch tests and benchmarks.
func body(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 42))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// bodies caches the test bodies; the test servers' handlers share it.
var bodies struct {
	sync.Mutex
	m map[int][]byte
}

func cachedBody(n int) []byte {
	bodies.Lock()
	defer bodies.Unlock()
	if b, ok := bodies.m[n]; ok {
		return b
	}
	if bodies.m == nil {
		bodies.m = map[int][]byte{}
	}
	b := body(n)
	bodies.m[n] = b
	return b
}

func registerFetchHandlers(mux *http.ServeMux) {
	mux.HandleFunc("/set-cookie", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret", HttpOnly: true, Path: "/"})
		w.Write([]byte("ok"))
	})
	// /bytes?n=N answers N bytes, only to a request carrying the HttpOnly
	// cookie; chunked=1 leaves out Content-Length.
	mux.HandleFunc("/bytes", func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("session"); err != nil || c.Value != "s3cret" {
			http.Error(w, "no session cookie", http.StatusForbidden)
			return
		}
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		b := cachedBody(n)
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", `attachment; filename="x.zip"`)
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		}
		for off := 0; off < len(b); off += 256 << 10 {
			end := min(off+256<<10, len(b))
			w.Write(b[off:end])
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
	})
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		for i, part := range streamParts {
			if i == len(streamParts)-1 {
				if name := r.URL.Query().Get("gate"); name != "" {
					select {
					case <-gate(name):
					case <-time.After(10 * time.Second):
					}
				}
			}
			w.Write(part)
			f.Flush()
			time.Sleep(20 * time.Millisecond)
		}
	})
	mux.HandleFunc("/stream-empty", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("/stream-redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/stream", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/bytes?"+r.URL.RawQuery, http.StatusFound)
	})
}
