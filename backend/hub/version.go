package hub

import (
	"net/http"
	"strconv"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The version handshake. Every request states the Ferry version and wire
// revision of its client (service.HeaderVersion, service.HeaderWire) and
// every answer the hub's. A request of another revision, or of none (a
// client built before the handshake), is refused with
// errs.VersionMismatch before it reaches a route, so that neither side
// misreads the other. GET /v1/whoami alone answers whatever the client
// states: it is how a client (and `ferry doctor`) learns the owner's
// version to show the mismatch.

func setVersionHeaders(h http.Header) {
	h.Set(service.HeaderVersion, service.This().Version)
	h.Set(service.HeaderWire, strconv.Itoa(service.WireRevision))
}

// checkWire returns the errs.VersionMismatch envelope for a request of
// another wire revision, or nil.
func checkWire(r *http.Request) *errs.Envelope {
	stated := r.Header.Get(service.HeaderWire)
	if stated == strconv.Itoa(service.WireRevision) || (r.Method == http.MethodGet && r.URL.Path == "/v1/whoami") {
		return nil
	}
	wire, err := strconv.Atoi(stated)
	if err != nil {
		wire = 0
	}
	return service.VersionMismatch(service.This(), service.Peer{Version: clip(r.Header.Get(service.HeaderVersion), 64), Wire: wire})
}
