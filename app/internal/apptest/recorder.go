package apptest

import (
	"strings"
	"sync"
)

// Recorder is an emitter that keeps the names of the events emitted.
type Recorder struct {
	mu sync.Mutex
	// Events are the names emitted, in order.
	Events []string
}

// Emit records name.
func (r *Recorder) Emit(name string, _ ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Events = append(r.Events, name)
}

// Names is the names emitted so far, in order, separated by spaces.
func (r *Recorder) Names() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.Events, " ")
}
