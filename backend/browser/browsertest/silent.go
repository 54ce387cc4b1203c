package browsertest

import (
	"net"
	"testing"
)

// SilentEndpoint is the DevTools address of a port that takes every
// connection and never answers its opening handshake (a browser that
// stopped responding); the port and its connections close when the test
// ends.
func SilentEndpoint(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() }) // held open, never answered
		}
	}()
	return "ws://" + ln.Addr().String() + "/devtools/browser/x"
}
