package service

import (
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/version"
)

// WireRevision is the revision of the request and result types as the local
// API carries them. It changes whenever a type of this package changes its
// JSON form incompatibly; a client and an owner of different revisions
// refuse to talk (errs.VersionMismatch) rather than misread each other.
const WireRevision = 1

// The headers of the version handshake: every request of a client states
// the Ferry version it was built from and its wire revision, and every
// answer of an owner states its own.
const (
	HeaderVersion = "Ferry-Version"
	HeaderWire    = "Ferry-Wire"
)

// HelloRequest asks an implementation who it is.
type HelloRequest struct{}

// Validate accepts every request.
func (HelloRequest) Validate() error { return nil }

// Hello says which Ferry answers and who it takes the caller for. PID and
// StartedAt are the owner process's (zero in-process).
type Hello struct {
	Version   string    `json:"version"`
	Wire      int       `json:"wire"`
	Caller    Caller    `json:"caller"`
	PID       int       `json:"pid,omitempty"`
	StartedAt time.Time `json:"startedAt,omitzero"`
}

// Peer is one side of the version handshake: the Ferry version it was
// built from and its wire revision (0: it stated none, it predates the
// handshake).
type Peer struct {
	Version string `json:"version"`
	Wire    int    `json:"wire"`
}

// This is this build's side of the handshake.
func This() Peer { return Peer{Version: version.Version, Wire: WireRevision} }

// VersionMismatch is the envelope of an owner and a client on different
// wire revisions: its message names both versions, its hint the process to
// restart, the older one (a client that stated no revision is the older).
func VersionMismatch(owner, client Peer) *errs.Envelope {
	cv := client.Version
	if cv == "" {
		cv = "a version from before the handshake"
	}
	e := errs.New(errs.VersionMismatch, "Ferry versions do not match: the running owner is %s (wire %d), this client is %s (wire %d)",
		owner.Version, owner.Wire, cv, client.Wire).
		WithEvidence("ownerVersion", owner.Version).WithEvidence("ownerWire", strconv.Itoa(owner.Wire)).
		WithEvidence("clientVersion", client.Version).WithEvidence("clientWire", strconv.Itoa(client.Wire))
	if client.Wire == 0 && client.Version == "" {
		return e.WithHint("the client is the older (it states no version): send %s: %s and %s: %d with every request, as Ferry %s's own clients do",
			HeaderVersion, owner.Version, HeaderWire, owner.Wire, owner.Version)
	}
	if client.Wire < owner.Wire {
		return e.WithHint("the client is the older: restart it from Ferry %s, the owner's version", owner.Version)
	}
	return e.WithHint("the running owner is the older: restart the Ferry app or `ferry serve` from Ferry %s, this client's version", client.Version)
}
