package hub

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"

	"github.com/ferrydesk/ferry/backend/service"
)

// MessageIDHeader carries a client-chosen id on state-changing HTTP requests;
// WebSocket messages carry it as "id". A repeated id from the same client
// within the dedup window gets the first response again and causes no second
// side effect, so clients may resend after a lost connection.
const MessageIDHeader = "X-Ferry-Message-Id"

// ReplayHeader marks a response that repeats the first response to a
// message id.
const ReplayHeader = "X-Ferry-Replay"

const maxMessageIDLen = 128

type dedupKey struct{ client, id string }

type dedupEntry struct {
	fingerprint service.Digest
	expires     time.Time
	done        chan struct{}
	resp        recorded
}

// recorded is a response as the dedup cache keeps it.
type recorded struct {
	status int
	header http.Header
	body   []byte
}

type dedupCache struct {
	mu      sync.Mutex
	window  time.Duration
	now     func() time.Time
	entries map[dedupKey]*dedupEntry
	order   []dedupKey // insertion order, for pruning expired entries
}

func newDedupCache(window time.Duration, now func() time.Time) *dedupCache {
	return &dedupCache{window: window, now: now, entries: map[dedupKey]*dedupEntry{}}
}

func validMessageID(id string) bool {
	if id == "" || len(id) > maxMessageIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// begin claims key. first is true when the caller must execute the request
// and call finish; otherwise the returned entry's response is (or will be,
// once done is closed) the one to replay. A key reused for a different
// request (another fingerprint) is an error.
func (c *dedupCache) begin(key dedupKey, fp service.Digest) (e *dedupEntry, first bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	c.prune(now)
	if e, ok := c.entries[key]; ok && now.Before(e.expires) {
		if !e.fingerprint.Equal(fp) {
			return nil, false, errs.New(errs.BadInput, "message id %q was already used for a different request in the last %s", key.id, c.window).
				WithEvidence("messageId", key.id).
				WithHint("use a fresh message id for every new request; reuse one only to resend the same request")
		}
		return e, false, nil
	}
	e = &dedupEntry{fingerprint: fp, expires: now.Add(c.window), done: make(chan struct{})}
	c.entries[key] = e
	c.order = append(c.order, key)
	return e, true, nil
}

// finish stores the first response and releases waiting duplicates.
func (c *dedupCache) finish(e *dedupEntry, resp recorded) {
	e.resp = resp
	close(e.done)
}

// wait returns the first response once it is known.
func (c *dedupCache) wait(ctx context.Context, e *dedupEntry) (recorded, error) {
	select {
	case <-e.done:
		return e.resp, nil
	case <-ctx.Done():
		return recorded{}, ctx.Err()
	}
}

func (c *dedupCache) prune(now time.Time) {
	n := 0
	for _, k := range c.order {
		e, ok := c.entries[k]
		if !ok {
			n++
			continue
		}
		if now.Before(e.expires) {
			break
		}
		select {
		case <-e.done:
			delete(c.entries, k)
		default:
			// Still executing: keep it (and everything after it) for now.
			c.order = c.order[n:]
			return
		}
		n++
	}
	c.order = c.order[n:]
}
