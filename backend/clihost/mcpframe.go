package clihost

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// The SDK's stdio connection ends the whole session on a line that is not
// JSON. A well-behaved server answers such a line with JSON-RPC's parse
// error (-32700, id null) and reads on: the two types below do that in
// front of the SDK's transport.

// parseError is the response to a line that is not JSON.
var parseError = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the line is not JSON"}}` + "\n")

// syncWriter serialises whole writes to w: the SDK writes one message per
// Write, and so does jsonLines.
type syncWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) Close() error { return s.w.Close() }

// jsonLines passes on the lines of r that are JSON (or blank) and answers
// each other line with parseError on out.
type jsonLines struct {
	r       *bufio.Reader
	closer  io.Closer
	out     io.Writer
	pending []byte
}

func newJSONLines(r io.ReadCloser, out io.Writer) *jsonLines {
	return &jsonLines{r: bufio.NewReader(r), closer: r, out: out}
}

func (j *jsonLines) Read(p []byte) (int, error) {
	for len(j.pending) == 0 {
		line, err := j.r.ReadBytes('\n')
		if len(line) > 0 {
			if t := bytes.TrimSpace(line); len(t) == 0 || json.Valid(t) {
				j.pending = line
			} else if _, werr := j.out.Write(parseError); werr != nil {
				return 0, werr
			}
		}
		if err != nil {
			if len(j.pending) > 0 {
				break
			}
			return 0, err
		}
	}
	n := copy(p, j.pending)
	j.pending = j.pending[n:]
	return n, nil
}

func (j *jsonLines) Close() error { return j.closer.Close() }

var (
	_ io.ReadCloser  = (*jsonLines)(nil)
	_ io.WriteCloser = (*syncWriter)(nil)
)
