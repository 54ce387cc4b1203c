//go:build !(desktop || dev)

package hotkey

import (
	"errors"

	"github.com/ferrydesk/ferry/backend/config"
)

// System grabs nothing in builds without a window (tests, the
// bindings generator): a test binary must never take a key from the
// developer's desktop.
func System(Env) Grabber { return noGrabber{} }

type noGrabber struct{}

func (noGrabber) Grab(config.Hotkey, func()) (func(), error) {
	return nil, errors.New("this build has no global hotkey")
}
