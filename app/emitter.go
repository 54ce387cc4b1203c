package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// emitter delivers events to the frontend. It is injected into the shell
// (never through an exported setter: every exported method of a bound struct
// becomes JavaScript API), so tests can record events without a window.
type emitter interface {
	Emit(name string, data ...any)
}

// Event names the frontend subscribes to (frontend/src/lib/api/events.ts).
const (
	// EventSettingsChanged carries the settings now in force.
	EventSettingsChanged = "settings:changed"
	// EventStatusChanged carries the new Status after the core reopened.
	EventStatusChanged = "status:changed"
)

// runtimeEmitter emits through the Wails runtime of a running window.
type runtimeEmitter struct{ ctx context.Context }

func (e runtimeEmitter) Emit(name string, data ...any) { runtime.EventsEmit(e.ctx, name, data...) }

// nopEmitter drops events: in force until the window has started.
type nopEmitter struct{}

func (nopEmitter) Emit(string, ...any) {}
