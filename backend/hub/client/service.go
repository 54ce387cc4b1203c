package client

import (
	"context"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
	"net/http"
	"net/url"
)

// Service is service.Service run on the owner over its local API: the same
// typed requests and results, carried as JSON. The owner decides who the
// caller is from the token (its own token: the owner; a paired client's:
// that agent), so the Caller given to a method only names the face that
// calls; a request the token may not make fails with the owner's
// errs.HubForbidden. Every request carries the version handshake: an owner
// of another wire revision answers errs.VersionMismatch. The operations of
// the owner's window (settings, the owner's browser…) are not on the wire:
// they answer service.InProcessOnly (see service.LocalOnly); the site
// registry and the tabs' states are (sites.go), for the MCP face. Called
// with service.Agent(id), a request carries hub.ActAsHeader: the owner's
// token acts as that agent client (actas.go).
type Service struct {
	service.LocalOnly
	c *Client
}

var _ service.Service = (*Service)(nil)

// NewService serves service.Service through c.
func NewService(c *Client) *Service { return &Service{c: c} }

// Client is the client the service calls through.
func (s *Service) Client() *Client { return s.c }

// Hello asks the owner who answers and who it takes the token for.
// Errors: the transport's; errs.HubUnauthorized.
func (s *Service) Hello(ctx context.Context, c service.Caller, req service.HelloRequest) (service.Hello, error) {
	ctx = actingAs(ctx, c)
	who, err := s.c.WhoAmI(ctx)
	if err != nil {
		return service.Hello{}, err
	}
	caller := service.Agent(who.ClientID)
	if who.Owner {
		caller = service.Owner(c.Face)
		if caller.Face == "" {
			caller = service.Owner(service.FaceCLI)
		}
	}
	return service.Hello{Version: who.Version, Wire: who.Wire, Caller: caller, PID: who.PID, StartedAt: who.StartedAt}, nil
}

// SubmitJob creates a job on the owner; a reattach job resumes a run there
// (the owner's token only). The owner runs every job in its own browser,
// so req.Browser is not sent: the job's spec comes back without it.
// Errors: req.Validate's; the owner's envelopes.
func (s *Service) SubmitJob(ctx context.Context, c service.Caller, req service.JobRequest) (service.Job, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Job{}, err
	}
	req.Browser = nil
	if req.Kind == service.KindReattach {
		res, err := s.c.ReattachSession(ctx, hub.SessionCheck{Session: req.SessionID, TimeoutMs: req.Timeout().Milliseconds()})
		return res.Job, err
	}
	return s.c.CreateJob(ctx, req)
}

// GetJob returns a job the token may see. Errors: errs.HubNotFound.
func (s *Service) GetJob(ctx context.Context, c service.Caller, req service.JobRef) (service.Job, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Job{}, err
	}
	return s.c.GetJob(ctx, req.ID)
}

// How often WatchJob reads the job: watchPoll without the event stream
// (no on, or the stream not connected yet), streamPoll while the stream is
// connected and brings the job's end itself (polling then only guards
// against a stream that dropped it): every read counts against the
// owner's rate limit.
const (
	watchPoll  = 150 * time.Millisecond
	streamPoll = time.Second
)

// WatchJob follows a job on the owner until it has ended: its run's events
// come from the owner's event stream (partial text is lost, never the end,
// when the stream is slow or down), its state from polling too, more and
// more slowly (at most streamPoll apart) once the stream is connected. With
// on nil the stream still brings the job's end the moment it comes. A poll
// the owner's rate limit refuses is skipped, the first one too. Errors: as GetJob (but
// errs.HubRateLimited); errs.Cancelled when ctx ends first.
func (s *Service) WatchJob(ctx context.Context, c service.Caller, req service.WatchRequest, on func(service.JobEvent)) (service.Job, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Job{}, err
	}
	ctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		stop()
		wg.Wait() // the follower has stopped when WatchJob returns
	}()
	if on == nil {
		on = func(service.JobEvent) {}
	}
	connected := make(chan struct{})
	events := make(chan service.JobEvent, 1024)
	var once sync.Once
	f := NewFollower(Static(s.c.Endpoint()), func(ev hub.Event) {
		if ev.JobID != req.ID {
			return
		}
		if je, ok := ev.JobEvent(); ok {
			select {
			case events <- je:
			default:
			}
		}
	}, WithStateHook(func(st State) {
		if st == StateConnected {
			once.Do(func() { close(connected) })
		}
	}))
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = f.Run(ctx)
	}()
	poll := watchPoll
	tick := time.NewTicker(poll)
	defer tick.Stop()
	j, err := s.c.GetJob(ctx, req.ID)
	if errs.Has(err, errs.HubRateLimited) {
		// The first read is a poll like the others: the next one (or
		// the stream) tells the job's state.
		j, err = service.Job{ID: req.ID}, nil
	}
	ran := err == nil && !j.Ended()
	final := false // the job's last event came over the stream
	for err == nil && !j.Ended() {
		select {
		case <-ctx.Done():
			return j, errs.Wrap(ctx.Err(), errs.Cancelled, "stop watching job %s: %v", req.ID, ctx.Err())
		case <-connected:
			connected = nil
			poll = streamPoll
			tick.Reset(poll)
		case ev := <-events:
			on(ev)
			if ev.Job != nil {
				j, final = *ev.Job, ev.Job.Ended()
			}
		case <-tick.C:
			// Every command of the owner shares its rate limit (several
			// `ferry ask` at once): polling slows down to streamPoll, and
			// a poll the limit refused is skipped, the job going on.
			if poll < streamPoll {
				poll = min(2*poll, streamPoll)
				tick.Reset(poll)
			}
			next, perr := s.c.GetJob(ctx, req.ID)
			if !errs.Has(perr, errs.HubRateLimited) {
				j, err = next, perr
			}
		}
	}
	if err == nil && ran && !final && events != nil && connected == nil {
		j = drainEnd(ctx, j, events, on)
	}
	return j, err
}

// finalWait is how long WatchJob waits, after polling saw the job end, for
// the event stream to deliver the rest of its events (the last partial
// text, the final state).
const finalWait = 3 * time.Second

// drainEnd hands on the events the stream still delivers for a job that
// polling saw end, until its last event (the job, ended) or finalWait, and
// returns the job's final view.
func drainEnd(ctx context.Context, j service.Job, events <-chan service.JobEvent, on func(service.JobEvent)) service.Job {
	wait := time.NewTimer(finalWait)
	defer wait.Stop()
	for {
		select {
		case <-ctx.Done():
			return j
		case <-wait.C:
			return j
		case ev := <-events:
			on(ev)
			if ev.Job != nil && ev.Job.Ended() {
				return *ev.Job
			}
		}
	}
}

// CancelJob cancels a job the token may see. Errors: errs.HubNotFound.
func (s *Service) CancelJob(ctx context.Context, c service.Caller, req service.JobRef) (service.Job, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Job{}, err
	}
	return s.c.CancelJob(ctx, req.ID)
}

// ListApprovals lists the jobs awaiting approval (owner only).
func (s *Service) ListApprovals(ctx context.Context, c service.Caller, req service.ListApprovalsRequest) ([]service.Approval, error) {
	ctx = actingAs(ctx, c)
	return s.c.Approvals(ctx)
}

// GetApproval returns the approval of one waiting job (owner only).
func (s *Service) GetApproval(ctx context.Context, c service.Caller, req service.ApprovalRef) (service.Approval, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Approval{}, err
	}
	var out service.Approval
	return out, s.c.do(ctx, http.MethodGet, "/v1/approvals/"+url.PathEscape(req.JobID), nil, &out)
}

// Approve starts a job awaiting approval (owner only).
func (s *Service) Approve(ctx context.Context, c service.Caller, req service.ApprovalRef) (service.Job, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Job{}, err
	}
	return s.c.Approve(ctx, req.JobID)
}

// Reject ends a job awaiting approval (owner only).
func (s *Service) Reject(ctx context.Context, c service.Caller, req service.RejectRequest) (service.Job, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Job{}, err
	}
	return s.c.Reject(ctx, req.JobID, req.Reason)
}
