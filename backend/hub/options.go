package hub

import (
	"log/slog"
	"strings"
	"time"
)

// Defaults of the gateway's limits, from the security design in issue 8.
const (
	DefaultHeartbeat     = 30 * time.Second
	DefaultRateLimit     = 100
	DefaultRateWindow    = 10 * time.Second
	DefaultDedupWindow   = 60 * time.Second
	defaultMaxBody       = 1 << 20
	defaultSubscriberBuf = 256
)

type options struct {
	hubFile     string
	now         func() time.Time
	heartbeat   time.Duration
	origins     []string
	rateN       int
	rateWindow  time.Duration
	dedupWindow time.Duration
	logger      *slog.Logger
}

// Option configures a Server.
type Option func(*options)

// WithHubFile makes Start publish the port and owner token in a hub file at
// path (config.Paths.HubFile()), written atomically with mode 0600, and
// Close remove it. Without it no file is written.
func WithHubFile(path string) Option { return func(o *options) { o.hubFile = path } }

// WithClock replaces time.Now for rate limits and deduplication
// (tests use it to move time without sleeping).
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithHeartbeat sets the interval of the WebSocket heartbeat message
// (default 30 s).
func WithHeartbeat(d time.Duration) Option { return func(o *options) { o.heartbeat = d } }

// WithAllowedOrigins adds exact origins ("scheme://host[:port]") that may
// call the API from a web page, besides the hub's own loopback origins. "*"
// and "null" are never accepted.
func WithAllowedOrigins(origins ...string) Option {
	return func(o *options) {
		for _, origin := range origins {
			origin = strings.ToLower(strings.TrimRight(strings.TrimSpace(origin), "/"))
			if origin == "" || origin == "*" || origin == "null" || !strings.Contains(origin, "://") {
				continue
			}
			o.origins = append(o.origins, origin)
		}
	}
}

// WithRateLimit allows each client n messages (HTTP requests and WebSocket
// messages together) per window (default 100 per 10 s).
func WithRateLimit(n int, window time.Duration) Option {
	return func(o *options) {
		if n > 0 && window > 0 {
			o.rateN, o.rateWindow = n, window
		}
	}
}

// WithDedupWindow sets how long a message id is remembered (default 60 s).
func WithDedupWindow(d time.Duration) Option { return func(o *options) { o.dedupWindow = d } }

// WithLogger sends the hub's log lines (never a token) to l (default: none).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

func defaultOptions() options {
	return options{
		now:         time.Now,
		heartbeat:   DefaultHeartbeat,
		rateN:       DefaultRateLimit,
		rateWindow:  DefaultRateWindow,
		dedupWindow: DefaultDedupWindow,
		logger:      slog.New(slog.DiscardHandler),
	}
}
