package client

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The client's side of the version handshake: every request states the
// client's Ferry version and wire revision, and an answer from an owner of
// another revision (or of none: an owner built before the handshake) is an
// errs.VersionMismatch, whatever it says otherwise. GET /v1/whoami is read
// whatever the owner's revision, so that its version can be shown.

// WithPeer makes the client state p instead of this build's version and
// wire revision: for tools that speak for another build, and for tests of
// the handshake.
func WithPeer(p service.Peer) Option { return func(c *Client) { c.peer = p } }

func statePeer(h http.Header, p service.Peer) {
	h.Set(service.HeaderVersion, p.Version)
	h.Set(service.HeaderWire, strconv.Itoa(p.Wire))
}

// ownerPeer is the owner's side as its answer states it (Wire 0 when it
// states none).
func ownerPeer(resp *http.Response) service.Peer {
	wire, err := strconv.Atoi(resp.Header.Get(service.HeaderWire))
	if err != nil {
		wire = 0
	}
	return service.Peer{Version: resp.Header.Get(service.HeaderVersion), Wire: wire}
}

// checkOwner returns the version mismatch of an answer to path, or nil. The
// owner's own version_mismatch envelope is preferred to the client's.
func checkOwner(resp *http.Response, path string, p service.Peer) error {
	owner := ownerPeer(resp)
	if owner.Wire == p.Wire || strings.HasPrefix(path, "/v1/whoami") {
		return nil
	}
	if resp.StatusCode >= 400 {
		if err := decodeError(resp); errs.Has(err, errs.VersionMismatch) {
			return err
		}
	}
	if owner.Version == "" {
		owner.Version = "a version from before the handshake"
	}
	return service.VersionMismatch(owner, p)
}
