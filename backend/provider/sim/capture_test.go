package sim_test

import (
	"encoding/base64"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// streamCapture records the body of the first response whose URL path ends
// with suffix, the way providers.md says to: Network.streamResourceContent at
// responseReceived, then the dataReceived chunks joined as bytes (never
// decoded chunk by chunk).
type streamCapture struct {
	mu       sync.Mutex
	buffered []byte
	chunks   []byte
	id       proto.NetworkRequestID
	status   int
	done     chan struct{}
	page     *rod.Page
	call     sync.WaitGroup
}

func captureStream(t *testing.T, p *rod.Page, suffix string) *streamCapture {
	t.Helper()
	c := &streamCapture{done: make(chan struct{}), page: p}
	if err := (proto.NetworkEnable{}).Call(p); err != nil {
		t.Fatalf("enable network: %v", err)
	}
	wait := p.EachEvent(func(e *proto.NetworkResponseReceived) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.id != "" || !strings.HasSuffix(strings.SplitN(e.Response.URL, "?", 2)[0], suffix) {
			return
		}
		c.id = e.RequestID
		c.status = e.Response.Status
		c.call.Add(1)
		go func(id proto.NetworkRequestID) {
			defer c.call.Done()
			res, err := proto.NetworkStreamResourceContent{RequestID: id}.Call(p)
			if err == nil {
				c.mu.Lock()
				c.buffered = res.BufferedData
				c.mu.Unlock()
			}
		}(e.RequestID)
	}, func(e *proto.NetworkDataReceived) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if e.RequestID == c.id && len(e.Data) > 0 {
			c.chunks = append(c.chunks, e.Data...)
		}
	}, func(e *proto.NetworkLoadingFinished) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.id != "" && e.RequestID == c.id
	}, func(e *proto.NetworkLoadingFailed) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.id != "" && e.RequestID == c.id
	})
	go func() { wait(); close(c.done) }()
	return c
}

// bytes waits for the response to end and returns its whole body.
func (c *streamCapture) bytes(t *testing.T) []byte {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(15 * time.Second):
		t.Fatal("capture stream: the response did not finish")
	}
	c.call.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append(append([]byte{}, c.buffered...), c.chunks...)
	if len(out) == 0 && c.page != nil {
		// A response that finished before streaming was enabled is still
		// buffered whole: getResponseBody reads it.
		res, err := proto.NetworkGetResponseBody{RequestID: c.id}.Call(c.page)
		if err == nil {
			if res.Base64Encoded {
				b, _ := base64.StdEncoding.DecodeString(res.Body)
				return b
			}
			return []byte(res.Body)
		}
	}
	return out
}
