package browser

import (
	"context"

	"github.com/ferrydesk/ferry/backend/browser/launch"
)

// Launch starts Chromium on the persistent profile in profileDir (see
// launch.Start: headful unless launch.Headless is given, DevTools on a
// random loopback port that never accepts other web origins) and connects
// to it. Close quits it.
//
// Errors: launch.Start's (BadInput, BrowserNotFound, BrowserLaunchFailed);
// those of the connection, after which the browser is killed.
func Launch(ctx context.Context, profileDir string, opts ...launch.Option) (*Browser, error) {
	proc, err := launch.Start(ctx, profileDir, opts...)
	if err != nil {
		return nil, err
	}
	b, err := connect(ctx, proc.Endpoint(), proc)
	if err != nil {
		proc.Kill()
		return nil, err
	}
	return b, nil
}
