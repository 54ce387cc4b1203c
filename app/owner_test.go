package app

import (
	"context"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
	"testing"
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
// pairAgent pairs a client named name through the owner's Service, as a
// redeemed pairing code does, and returns it as the caller of its
// requests.
func (s *shell) pairAgent(t testing.TB, name string) service.Caller {
	t.Helper()
	s.mu.RLock()
	svc := s.own.svc
	s.mu.RUnlock()
	ctx := context.Background()
	code, err := svc.NewPairingCode(ctx, service.Owner(service.FaceDesktop), service.PairingRequest{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Pair(ctx, service.PairRequest{Code: code.Code, Name: name, From: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	return service.Agent(p.ClientID)
}

// submitAs submits spec for agent c through the owner's Service, as the
// gateway's route does.
func (s *shell) submitAs(ctx context.Context, c service.Caller, spec service.JobRequest) (service.Job, error) {
	s.mu.RLock()
	svc := s.own.svc
	s.mu.RUnlock()
	return svc.SubmitJob(ctx, c, spec)
}

func (s *shell) hubServer() *hub.Server {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.own == nil {
		return nil
	}
	return s.own.srv
}
