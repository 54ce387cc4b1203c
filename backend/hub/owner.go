package hub

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/coder/websocket"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// This file holds the hub's decisions and the owner's actions. The HTTP
// routes call them, and so can the process that runs the hub (the desktop
// app binds them to its approval and client screens).

// CreateJob validates spec and submits the job for caller to the Service,
// which holds a paired client's job in StateAwaitingApproval unless that
// client is set to auto-approve; the owner's jobs run at once. The hub
// checks that decision against its own (the client read fresh from the
// ClientStore, so a change applies at once) and lists the job for
// approval. Errors: errs.BadInput for an invalid spec, the Service's
// errors, errs.Internal when the Service let a job through that should
// wait (the job is cancelled then: the hub fails closed).
func (s *Server) CreateJob(ctx context.Context, caller Caller, spec JobSpec) (Job, error) {
	switch spec.Kind {
	case KindAsk, KindCode:
	default:
		return Job{}, errs.New(errs.BadInput, "job kind %q is not one of %q, %q", clip(string(spec.Kind), 40), KindAsk, KindCode)
	}
	if strings.TrimSpace(spec.Prompt) == "" && spec.Template == "" {
		return Job{}, errs.New(errs.BadInput, "the job has an empty prompt").WithHint("set \"prompt\", or \"template\" with its \"vars\"")
	}
	if spec.Browser != nil {
		return Job{}, errs.New(errs.BadInput, "a job through the owner runs in the owner's browser; it takes no \"browser\"").
			WithHint("drop \"browser\" from the job")
	}
	spec.RequestedBy = caller.ClientID
	await := false
	clientName := caller.Name
	if !caller.Owner {
		rec, err := s.clients.Get(ctx, caller.ClientID)
		if err != nil {
			return Job{}, err
		}
		if rec.RevokedAt != nil {
			return Job{}, errs.New(errs.HubUnauthorized, "client %q was revoked", rec.ID)
		}
		await, clientName = !rec.AutoApprove, rec.Name
	}
	job, err := s.svc.SubmitJob(ctx, caller.service(), spec)
	if err != nil {
		return Job{}, err
	}
	if !await {
		return job, nil
	}
	if job.State != StateAwaitingApproval {
		s.log.Error("the service let a job through that should wait for approval; cancelling", "job", job.ID, "state", job.State)
		s.svc.CancelJob(context.WithoutCancel(ctx), ownerCaller, service.JobRef{ID: job.ID})
		return Job{}, errs.New(errs.Internal, "job %s of client %s should wait for approval but is %q; it was cancelled", job.ID, caller.ClientID, job.State)
	}
	ap := service.ApprovalOf(job, spec, clientName)
	ap.ClientID, ap.RequestedAt = caller.ClientID, s.opt.now().UTC()
	s.approvals.add(ap)
	s.bus.publish(Event{Type: EventApprovalRequested, JobID: job.ID, ClientID: caller.ClientID, Data: &EventData{Approval: &ap}})
	return job, nil
}

// Approvals lists the jobs that wait for the user's decision, oldest first.
func (s *Server) Approvals() []Approval { return s.approvals.list() }

// Approve lets a waiting job run. Errors: errs.HubNotFound when no job with
// that id waits; the Service's errors (the job then still waits).
func (s *Server) Approve(ctx context.Context, jobID string) (Job, error) {
	ap, ok := s.approvals.take(jobID)
	if !ok {
		return Job{}, errs.New(errs.HubNotFound, "no job %q awaits approval", clip(jobID, 80))
	}
	job, err := s.svc.Approve(ctx, ownerCaller, service.ApprovalRef{JobID: jobID})
	if err != nil {
		s.approvals.add(ap)
		return Job{}, err
	}
	s.publishDecision(ap, Decision{JobID: jobID, Approved: true})
	return job, nil
}

// Reject ends a waiting job without running it. Errors: as Approve.
func (s *Server) Reject(ctx context.Context, jobID, reason string) (Job, error) {
	ap, ok := s.approvals.take(jobID)
	if !ok {
		return Job{}, errs.New(errs.HubNotFound, "no job %q awaits approval", clip(jobID, 80))
	}
	reason = service.Summarize(reason, 500)
	job, err := s.svc.Reject(ctx, ownerCaller, service.RejectRequest{JobID: jobID, Reason: reason})
	if err != nil {
		s.approvals.add(ap)
		return Job{}, err
	}
	s.publishDecision(ap, Decision{JobID: jobID, Approved: false, Reason: reason})
	return job, nil
}

func (s *Server) publishDecision(ap Approval, d Decision) {
	s.bus.publish(Event{Type: EventApprovalResolved, JobID: ap.JobID, ClientID: ap.ClientID, Data: &EventData{Decision: &d}})
}

// NewPairingCode issues a one-time code (valid for at most five minutes)
// that a client exchanges for its own token at POST /v1/pair.
func (s *Server) NewPairingCode() (PairingCode, error) {
	code, err := s.pairing.issue()
	if err != nil {
		return PairingCode{}, errs.Wrap(err, errs.Internal, "issue pairing code: %v", err)
	}
	return code, nil
}

// RegisterClient creates a paired client directly (the owner's "new client"
// action, and what a redeemed pairing code does). The token is returned
// once; only its digest is stored. Errors: errs.BadInput for a bad name, the
// ClientStore's errors.
func (s *Server) RegisterClient(ctx context.Context, name string) (ClientInfo, string, error) {
	name, e := cleanClientName(name)
	if e != nil {
		return ClientInfo{}, "", e
	}
	id, err := newClientID()
	if err != nil {
		return ClientInfo{}, "", errs.Wrap(err, errs.Internal, "register client: %v", err)
	}
	token, digest, err := mintToken(id)
	if err != nil {
		return ClientInfo{}, "", errs.Wrap(err, errs.Internal, "register client: %v", err)
	}
	rec := ClientRecord{ID: id, Name: name, TokenDigest: digest, CreatedAt: s.opt.now().UTC()}
	if err := s.clients.Put(ctx, rec); err != nil {
		return ClientInfo{}, "", err
	}
	return rec.Info(), token, nil
}

// Clients lists the paired clients, revoked ones included.
func (s *Server) Clients(ctx context.Context) ([]ClientInfo, error) {
	recs, err := s.clients.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ClientInfo, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Info())
	}
	return out, nil
}

// Revoke ends a client's access: its next request fails with
// errs.HubUnauthorized and its open event streams are closed at once (close
// code 1008, policy violation). Revoking twice is harmless. Errors:
// errs.HubNotFound for an unknown id, the ClientStore's errors.
func (s *Server) Revoke(ctx context.Context, clientID string) (ClientInfo, error) {
	rec, err := s.clients.Get(ctx, clientID)
	if err != nil {
		return ClientInfo{}, err
	}
	if rec.RevokedAt == nil {
		now := s.opt.now().UTC()
		rec.RevokedAt = &now
		if err := s.clients.Put(ctx, rec); err != nil {
			return ClientInfo{}, err
		}
	}
	s.closeClientConns(rec.ID, websocket.StatusPolicyViolation, "client token revoked")
	s.limiter.forget(rec.ID)
	info := rec.Info()
	s.bus.publish(Event{Type: EventClientRevoked, ClientID: OwnerClientID, Data: &EventData{Client: &info}})
	s.log.Info("client revoked", "client", rec.ID)
	return rec.Info(), nil
}

// SetAutoApprove sets whether a client's jobs run without the user's
// approval. Errors: errs.HubNotFound, errs.BadInput for a revoked client.
func (s *Server) SetAutoApprove(ctx context.Context, clientID string, on bool) (ClientInfo, error) {
	return s.editClient(ctx, clientID, func(rec *ClientRecord) { rec.AutoApprove = on })
}

// GrantExisting sets whether a client's jobs may name the user's existing
// tabs, conversations and runs. Errors: as SetAutoApprove.
func (s *Server) GrantExisting(ctx context.Context, clientID string, on bool) (ClientInfo, error) {
	return s.editClient(ctx, clientID, func(rec *ClientRecord) { rec.ExistingConversations = on })
}

// SetFileRoots sets the directories under which a client's jobs may name
// files to attach (none: no file). Errors: as SetAutoApprove; errs.BadInput
// for a root that is not an absolute path.
func (s *Server) SetFileRoots(ctx context.Context, clientID string, roots []string) (ClientInfo, error) {
	clean, err := CleanFileRoots(roots)
	if err != nil {
		return ClientInfo{}, err
	}
	return s.editClient(ctx, clientID, func(rec *ClientRecord) { rec.FileRoots = clean })
}

// CleanFileRoots checks and cleans file roots: absolute paths, each once.
// Errors: errs.BadInput naming a root that is not absolute.
func CleanFileRoots(roots []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, r := range roots {
		if !filepath.IsAbs(r) {
			return nil, errs.New(errs.BadInput, "file root %q is not an absolute path", r).WithHint("give each root as an absolute directory")
		}
		c := filepath.Clean(r)
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// editClient applies edit to a paired client that is not revoked.
func (s *Server) editClient(ctx context.Context, clientID string, edit func(*ClientRecord)) (ClientInfo, error) {
	rec, err := s.clients.Get(ctx, clientID)
	if err != nil {
		return ClientInfo{}, err
	}
	if rec.RevokedAt != nil {
		return ClientInfo{}, errs.New(errs.BadInput, "client %q was revoked; pair it again instead", rec.ID)
	}
	edit(&rec)
	if err := s.clients.Put(ctx, rec); err != nil {
		return ClientInfo{}, err
	}
	return rec.Info(), nil
}
