package browser

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
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

func registerCaptureHandlers(mux *http.ServeMux) {
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
	// /ws answers each "say:TEXT" with TEXT as a text message and then
	// its bytes reversed as a binary one.
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			_, b, err := c.Read(r.Context())
			if err != nil {
				return
			}
			said, ok := strings.CutPrefix(string(b), "say:")
			if !ok {
				continue
			}
			if c.Write(r.Context(), websocket.MessageText, []byte(said)) != nil || c.Write(r.Context(), websocket.MessageBinary, reverse([]byte(said))) != nil {
				return
			}
		}
	})
	mux.HandleFunc("/stream-redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/stream", http.StatusTemporaryRedirect)
	})
}
