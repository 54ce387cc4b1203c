package fetch

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
)

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
	mux.HandleFunc("/blank.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><html><head><title>Blank fixture</title></head><body><p>blank</p></body></html>"))
	})
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
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/bytes?"+r.URL.RawQuery, http.StatusFound)
	})
}
