package app

import (
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/hub"
)

// withCore runs fn with the owner's open core: tests seed the store
// through it.
func (s *shell) withCore(fn func(*core.Core) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.own == nil {
		return s.notOpen()
	}
	return fn(s.own.core)
}

// hubServer is the owner's running gateway, or nil.
func (s *shell) hubServer() *hub.Server {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.own == nil {
		return nil
	}
	return s.own.srv
}
