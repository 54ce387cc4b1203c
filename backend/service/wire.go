package service

import "time"

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
