package launch

import "time"

// Option configures Start.
type Option func(*config)

type config struct {
	binary        string
	headless      bool
	args          []string
	launchTimeout time.Duration
}

func newConfig(opts []Option) config {
	c := config{launchTimeout: 30 * time.Second}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithBinary launches the Chromium or Chrome executable at path instead of
// searching PATH.
func WithBinary(path string) Option { return func(c *config) { c.binary = path } }

// Headless launches the browser without a window (for servers and tests).
// The default is a headful window, so that the user can log in to the sites.
func Headless() Option { return func(c *config) { c.headless = true } }

// WithArgs adds command-line arguments to the browser. Arguments that would
// change where or how DevTools listens, or the profile directory, are
// refused by Start with BadInput.
func WithArgs(args ...string) Option {
	return func(c *config) { c.args = append(c.args, args...) }
}

// WithLaunchTimeout bounds how long Start waits for the browser's DevTools
// endpoint (default 30 s), within the caller's context.
func WithLaunchTimeout(d time.Duration) Option { return func(c *config) { c.launchTimeout = d } }
