package stream

import (
	"bytes"
	"encoding/json"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// LineBuffer cuts a byte stream into lines. A line is only handed on once its
// "\n" arrived (or at flush), so a line split across chunks, or a multibyte
// character split across chunks, is always seen whole. A trailing "\r" is
// removed (CRLF streams), and a UTF-8 byte order mark at the very start of the
// stream is dropped.
type LineBuffer struct {
	buf     []byte
	scanned int // bytes of buf already searched for '\n'
	seen    bool
}

// Feed appends p and hands every line completed by it to emit.
func (l *LineBuffer) Feed(p []byte, emit func(line []byte)) {
	l.buf = append(l.buf, p...)
	start := 0
	for {
		i := bytes.IndexByte(l.buf[l.scanned:], '\n')
		if i < 0 {
			break
		}
		end := l.scanned + i
		l.emit(l.buf[start:end], emit)
		start = end + 1
		l.scanned = start
	}
	if start > 0 {
		n := copy(l.buf, l.buf[start:])
		l.buf = l.buf[:n]
		l.scanned -= start
	}
	l.scanned = len(l.buf)
}

// Flush hands the trailing line that lacks its "\n" to emit, and empties the
// buffer.
func (l *LineBuffer) Flush(emit func(line []byte)) {
	if len(l.buf) > 0 {
		l.emit(l.buf, emit)
	}
	l.buf = nil
	l.scanned = 0
}

func (l *LineBuffer) emit(line []byte, emit func([]byte)) {
	if !l.seen {
		l.seen = true
		line = bytes.TrimPrefix(line, bom)
	}
	line = bytes.TrimSuffix(line, []byte{'\r'})
	emit(line)
}

// SSE assembles server-sent events from lines. Each data line that is
// a complete JSON value (or "[DONE]") is delivered at once rather than at the
// next blank line: the sites send one JSON value per data line, some send
// several data lines without blank lines between them, and delivering early
// gives partial text without waiting for the event's end. Data that is not
// complete JSON on its own is joined with "\n" per the SSE rules and
// delivered at the blank line.
type SSE struct {
	lines   LineBuffer
	event   string
	pending [][]byte
	// Deliver receives each event's name ("" when none was given) and data.
	Deliver func(event string, data []byte)
}

// Write feeds the next chunk of the body.
func (s *SSE) Write(p []byte) { s.lines.Feed(p, s.line) }

// Close delivers what the end of the body completes.
func (s *SSE) Close() {
	s.lines.Flush(s.line)
	s.dispatch()
}

func (s *SSE) line(line []byte) {
	if len(line) == 0 {
		s.dispatch()
		s.event = ""
		return
	}
	if line[0] == ':' {
		return
	}
	field, value, _ := bytes.Cut(line, []byte{':'})
	value = bytes.TrimPrefix(value, []byte{' '})
	switch string(field) {
	case "event":
		s.event = string(value)
	case "data":
		value = bytes.TrimPrefix(value, bom)
		if len(s.pending) == 0 && (json.Valid(value) || string(value) == "[DONE]") {
			s.Deliver(s.event, value)
			return
		}
		s.pending = append(s.pending, append([]byte(nil), value...))
	}
}

func (s *SSE) dispatch() {
	if len(s.pending) == 0 {
		return
	}
	pending := s.pending
	s.pending = nil
	data := bytes.Join(pending, []byte{'\n'})
	if len(pending) > 1 && !json.Valid(data) {
		// A stray line must not swallow the valid frames after it.
		for _, p := range pending {
			s.Deliver(s.event, p)
		}
		return
	}
	s.Deliver(s.event, data)
}
