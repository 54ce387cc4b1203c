package hub

import (
	"net/http"
	"strconv"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The version handshake. Every request of Ferry's own clients states their
// Ferry version and wire revision (service.HeaderVersion,
// service.HeaderWire), and every answer states the hub's. A request that
// states another revision is refused with errs.VersionMismatch before it
// reaches a route, so that neither side misreads the other; Ferry's client
// in turn refuses an answer that states another revision or none (an owner
// built before the handshake). A request that states neither header is a
// plain API client (a script, an agent speaking HTTP) and is served: it
// reads the hub's revision from any answer. GET /v1/whoami answers
// whatever the client states: it is how a client (and `ferry doctor`)
// learns the owner's version to show the mismatch.

func setVersionHeaders(h http.Header) {
	h.Set(service.HeaderVersion, service.This().Version)
	h.Set(service.HeaderWire, strconv.Itoa(service.WireRevision))
}

// checkWire returns the errs.VersionMismatch envelope for a request that
// states another wire revision (or a version without a revision), or nil.
func checkWire(r *http.Request) *errs.Envelope {
	stated, version := r.Header.Get(service.HeaderWire), r.Header.Get(service.HeaderVersion)
	if stated == strconv.Itoa(service.WireRevision) || (stated == "" && version == "") ||
		(r.Method == http.MethodGet && r.URL.Path == "/v1/whoami") {
		return nil
	}
	wire, err := strconv.Atoi(stated)
	if err != nil {
		wire = 0
	}
	return service.VersionMismatch(service.This(), service.Peer{Version: clip(version, 64), Wire: wire})
}
