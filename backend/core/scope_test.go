package core

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// scopeCaller is one token of the caller-scope test.
type scopeCaller struct {
	name  string
	id    string // the client id ("" for the owner)
	token string
}

// scopeHTTP sends requests to a hub over HTTP as its callers would.
type scopeHTTP struct {
	t    *testing.T
	port int
	hc   *http.Client
	seq  atomic.Int64
}

// do sends method path with body (JSON, nil for none) as c and returns the
// status and the decoded answer (an envelope for an error).
func (h *scopeHTTP) do(ctx context.Context, c scopeCaller, method, path string, body any) (int, []byte) {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://127.0.0.1:"+strconv.Itoa(h.port)+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method == http.MethodPost || method == http.MethodDelete {
		req.Header.Set(hub.MessageIDHeader, "scope-"+strconv.FormatInt(h.seq.Add(1), 10))
	}
	resp, err := h.hc.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s as %s: %v", method, path, c.name, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// codeOf is the error code of an envelope answer ("" for another).
func codeOf(body []byte) errs.Code {
	var env errs.Envelope
	if json.Unmarshal(body, &env) != nil {
		return ""
	}
	return env.Code
}

// TestCallerScopeOverHTTP: against a real owner (the hub over a core with
// the simulator's browser) and real tokens, every read and write route
// answers the owner, a paired agent A, another paired agent B and a
// revoked agent as the caller-scope rules say: an agent sees only its own
// jobs, runs and the tabs its jobs opened (another's run is not found,
// exactly as a missing one), names no tab, conversation or run of the
// user's without the grant, and reaches no owner-only route; the grant
// admits A to the user's tab with an approval naming the site, the
// conversation, the model and the continuation; the rules hold after a
// restart of the owner.
func TestCallerScopeOverHTTP(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	o := startOwner(t, ctx, dir, OwnerOptions{Browser: h.Browser})
	stopped := false
	defer func() {
		if !stopped {
			o.stop(t)
		}
	}()
	hf, err := hubfile.Read(o.c.Paths().HubFile())
	if err != nil {
		t.Fatal(err)
	}
	owner := scopeCaller{name: "the owner", token: hf.Token}
	register := func(name string) scopeCaller {
		info, token, err := o.register(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		return scopeCaller{name: name, id: info.ID, token: token}
	}
	a, b, revoked := register("agent A"), register("agent B"), register("revoked agent")
	if _, err := o.svc.RevokeClient(ctx, service.Owner(service.FaceCLI), service.ClientRef{ID: revoked.id}); err != nil {
		t.Fatal(err)
	}
	api := &scopeHTTP{t: t, port: o.srv.Port(), hc: &http.Client{Timeout: 30 * time.Second}}
	svc := o.svc

	// The user's own tab: a conversation titled "Tax questions".
	userTab, err := h.Browser.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := userTab.Navigate(ctx, sim.URL(sim.ChatGPT, "/c/tax-questions-1")); err != nil {
		t.Fatal(err)
	}
	for title := ""; title != "Tax questions"; {
		if _, err := userTab.Eval(ctx, `() => { document.title = "Tax questions" }`); err != nil {
			t.Fatal(err)
		}
		info, err := userTab.Info(ctx)
		if err != nil || ctx.Err() != nil {
			t.Fatalf("title the user's tab: %v %v", err, ctx.Err())
		}
		title = info.Title
	}

	// The owner's run, and agent A's run (auto-approved for the setup).
	runJob := func(c scopeCaller, prompt string) service.Job {
		t.Helper()
		status, body := api.do(ctx, c, http.MethodPost, "/v1/jobs", service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: prompt})
		if status != http.StatusCreated {
			t.Fatalf("submit as %s: %d %s", c.name, status, body)
		}
		var j service.Job
		if err := json.Unmarshal(body, &j); err != nil {
			t.Fatal(err)
		}
		caller := service.Owner(service.FaceCLI)
		if c.id != "" {
			caller = service.Agent(c.id)
		}
		done, err := svc.WatchJob(ctx, caller, service.WatchRequest{ID: j.ID}, nil)
		if err != nil || done.State != string(job.StateDone) || done.Detail.Run == nil {
			t.Fatalf("job of %s: %+v %v", c.name, done, err)
		}
		return done
	}
	ownerJob := runJob(owner, "The owner's private question")
	if _, err := o.autoApprove(ctx, a.id, true); err != nil {
		t.Fatal(err)
	}
	aJob := runJob(a, "Agent A's own question")
	if _, err := o.autoApprove(ctx, a.id, false); err != nil {
		t.Fatal(err)
	}
	ownerRun, aRun := ownerJob.Detail.Session, aJob.Detail.Session
	aTab := aJob.Detail.Run.Routing.ControlledTabID
	if aTab == "" || aTab == userTab.ID() || !aJob.Detail.Spec.NewChat {
		t.Fatalf("agent A's site-only job did not run in a new tab of its own: tab %q, spec %+v", aTab, aJob.Detail.Spec)
	}

	callers := []scopeCaller{owner, a, b, revoked}
	type want struct {
		status int
		code   errs.Code // "" for a success
	}
	ok := want{status: http.StatusOK}
	created := want{status: http.StatusCreated}
	forbidden := want{http.StatusForbidden, errs.HubForbidden}
	unauthorized := want{http.StatusUnauthorized, errs.HubUnauthorized}
	noJob := want{http.StatusNotFound, errs.HubNotFound}
	noRun := want{http.StatusNotFound, errs.SessionNotFound}
	noRoute := want{http.StatusNotFound, errs.HubNotFound}
	notAllowed := want{http.StatusMethodNotAllowed, errs.BadInput}
	notFailed := want{http.StatusBadRequest, errs.BadInput}
	skip := want{} // not sent: the owner's side effect is covered elsewhere

	ask := func(extra func(*service.JobRequest)) service.JobRequest {
		r := service.JobRequest{Kind: service.KindAsk, Prompt: "Which tab is this?"}
		extra(&r)
		return r
	}
	routes := []struct {
		name         string
		method, path string
		body         any
		want         [4]want // owner, A, B, revoked
	}{
		{"who am I", "GET", "/v1/whoami", nil, [4]want{ok, ok, ok, unauthorized}},
		{"the run listing", "GET", "/v1/sessions", nil, [4]want{ok, ok, ok, unauthorized}},
		{"a search", "GET", "/v1/sessions/search?q=question", nil, [4]want{ok, ok, ok, unauthorized}},
		{"the owner's run", "GET", "/v1/sessions/" + ownerRun, nil, [4]want{ok, noRun, noRun, unauthorized}},
		{"the owner's run by its prefix", "GET", "/v1/sessions/" + ownerRun[:len(ownerRun)-1], nil, [4]want{ok, noRun, noRun, unauthorized}},
		{"agent A's run", "GET", "/v1/sessions/" + aRun, nil, [4]want{ok, ok, noRun, unauthorized}},
		{"a run that does not exist", "GET", "/v1/sessions/20000101-000000-000000", nil, [4]want{noRun, noRun, noRun, unauthorized}},
		{"the owner's run exported", "GET", "/v1/sessions/" + ownerRun + "/export?format=md", nil, [4]want{ok, noRun, noRun, unauthorized}},
		{"agent A's run exported", "GET", "/v1/sessions/" + aRun + "/export?format=json", nil, [4]want{ok, ok, noRun, unauthorized}},
		// A report is for a failed run: a done one that the caller may see
		// is refused as bad input, one it may not see is not found.
		{"the owner's run reported", "GET", "/v1/sessions/" + ownerRun + "/report", nil, [4]want{notFailed, noRun, noRun, unauthorized}},
		{"agent A's run reported", "GET", "/v1/sessions/" + aRun + "/report", nil, [4]want{notFailed, notFailed, noRun, unauthorized}},
		{"a poll", "POST", "/v1/sessions/poll", service.PollRequest{Session: aRun}, [4]want{ok, forbidden, forbidden, unauthorized}},
		{"a reattach", "POST", "/v1/sessions/reattach", service.ReattachRequest{Session: ownerRun}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a sessions doctor", "POST", "/v1/sessions/doctor", map[string]any{}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a job listing", "GET", "/v1/jobs", nil, [4]want{notAllowed, notAllowed, notAllowed, unauthorized}},
		{"the owner's job", "GET", "/v1/jobs/" + ownerJob.ID, nil, [4]want{ok, noJob, noJob, unauthorized}},
		{"agent A's job", "GET", "/v1/jobs/" + aJob.ID, nil, [4]want{ok, ok, noJob, unauthorized}},
		{"cancelling the owner's job", "POST", "/v1/jobs/" + ownerJob.ID + "/cancel", nil, [4]want{skip, noJob, noJob, unauthorized}},
		{"an artifact of the owner's job", "GET", "/v1/jobs/" + ownerJob.ID + "/artifacts/a.zip", nil, [4]want{{http.StatusNotFound, errs.ArtifactNotFound}, noJob, noJob, unauthorized}},
		{"the event stream without an upgrade", "GET", "/v1/events", nil, [4]want{{status: http.StatusUpgradeRequired}, {status: http.StatusUpgradeRequired}, {status: http.StatusUpgradeRequired}, unauthorized}},
		{"the tabs", "GET", "/v1/tabs", nil, [4]want{ok, ok, ok, unauthorized}},
		{"opening a tab", "POST", "/v1/tabs", service.OpenTabRequest{Site: "chatgpt"}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"an action on the user's tab", "POST", "/v1/tabs/action", service.TabActionRequest{TargetID: userTab.ID(), Action: service.TabActionShow}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a live check of the sites", "POST", "/v1/sites/doctor", service.SitesDoctorRequest{Sites: []string{"chatgpt"}}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a job in the user's tab", "POST", "/v1/jobs", ask(func(r *service.JobRequest) { r.TabID = userTab.ID() }), [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a job in agent A's tab", "POST", "/v1/jobs", ask(func(r *service.JobRequest) { r.TabID = aTab }), [4]want{skip, created, forbidden, unauthorized}},
		{"a code job in the user's conversation", "POST", "/v1/jobs", service.JobRequest{Kind: service.KindCode, Prompt: "Zip it", Conversation: "tax-questions-1"}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a follow-up of the owner's run", "POST", "/v1/jobs", ask(func(r *service.JobRequest) { r.Site, r.SessionID = "chatgpt", ownerRun }), [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a job naming only a site", "POST", "/v1/jobs", ask(func(r *service.JobRequest) { r.Site = "chatgpt" }), [4]want{skip, created, created, unauthorized}},
		{"the approvals", "GET", "/v1/approvals", nil, [4]want{ok, forbidden, forbidden, unauthorized}},
		{"an approval", "GET", "/v1/approvals/job-none", nil, [4]want{noJob, forbidden, forbidden, unauthorized}},
		{"approving", "POST", "/v1/approvals/job-none/approve", nil, [4]want{noJob, forbidden, forbidden, unauthorized}},
		{"rejecting", "POST", "/v1/approvals/job-none/reject", nil, [4]want{noJob, forbidden, forbidden, unauthorized}},
		{"the clients", "GET", "/v1/clients", nil, [4]want{ok, forbidden, forbidden, unauthorized}},
		{"granting agent A the user's conversations", "POST", "/v1/clients/" + a.id + "/settings", map[string]bool{"existingConversations": false}, [4]want{ok, forbidden, forbidden, unauthorized}},
		{"revoking agent B", "DELETE", "/v1/clients/" + b.id, nil, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a pairing code", "POST", "/v1/pairing", nil, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"an agent client of its own making", "POST", "/v1/clients/agents", service.EnsureAgentRequest{Name: "scope agent", Kind: "mcp"}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"the templates", "GET", "/v1/templates", nil, [4]want{ok, ok, ok, unauthorized}},
		{"saving a template", "POST", "/v1/templates", service.Template{Name: "scope", Body: "Hi {{x}}", Variables: []string{"x"}}, [4]want{ok, forbidden, forbidden, unauthorized}},
		{"a template", "GET", "/v1/templates/scope", nil, [4]want{ok, ok, ok, unauthorized}},
		{"deleting a template", "DELETE", "/v1/templates/scope", nil, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"the settings", "GET", "/v1/settings", nil, [4]want{noRoute, noRoute, noRoute, unauthorized}},
		{"the owner's browser", "GET", "/v1/browser", nil, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a retrieval of the user's conversation", "POST", "/v1/retrieve", map[string]any{"conversation": "tax-questions-1", "timeoutMs": 1000}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"a retrieval into a folder", "POST", "/v1/retrieve", map[string]any{"conversation": "tax-questions-1", "timeoutMs": 1000, "outDir": "/tmp"}, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"the sites", "GET", "/v1/sites", nil, [4]want{ok, ok, ok, unauthorized}},
		{"the projects", "GET", "/v1/projects", nil, [4]want{skip, forbidden, forbidden, unauthorized}},
		{"adding a project's sources", "POST", "/v1/projects/sources", service.AddSourcesRequest{Project: "Harbour notes", Files: []string{"/tmp/notes.md"}, Confirmed: true, TimeoutMs: 1000},
			[4]want{skip, forbidden, forbidden, unauthorized}},
	}
	for _, r := range routes {
		for i, c := range callers {
			w := r.want[i]
			if w.status == 0 {
				continue
			}
			t.Run(r.name+" answers "+c.name+" "+strconv.Itoa(w.status), func(t *testing.T) {
				status, body := api.do(ctx, c, r.method, r.path, r.body)
				if status != w.status || (w.code != "" && codeOf(body) != w.code) {
					t.Fatalf("%s %s: %d %s, want %d %s", r.method, r.path, status, body, w.status, w.code)
				}
			})
		}
	}

	t.Run("each caller lists only the runs it may see", func(t *testing.T) {
		for _, tc := range []struct {
			c    scopeCaller
			want []string
		}{{owner, []string{ownerRun, aRun}}, {a, []string{aRun}}, {b, nil}} {
			for _, path := range []string{"/v1/sessions", "/v1/sessions/search?q=question"} {
				status, body := api.do(ctx, tc.c, "GET", path, nil)
				var got []service.SessionSummary
				if status != http.StatusOK || json.Unmarshal(body, &got) != nil {
					t.Fatalf("%s as %s: %d %s", path, tc.c.name, status, body)
				}
				ids := map[string]bool{}
				for _, s := range got {
					ids[s.ID] = true
					if s.Extra != nil && s.Extra.Total > len(tc.want) && tc.c.id != "" {
						t.Errorf("%s as %s counts %d runs, more than its own", path, tc.c.name, s.Extra.Total)
					}
				}
				for _, id := range tc.want {
					if !ids[id] {
						t.Errorf("%s as %s misses run %s: %s", path, tc.c.name, id, body)
					}
				}
				if tc.c.id != "" && len(got) != len(tc.want) {
					t.Errorf("%s as %s lists %d runs, want %d: %s", path, tc.c.name, len(got), len(tc.want), body)
				}
			}
		}
	})

	t.Run("another's run is refused exactly as a missing one", func(t *testing.T) {
		missingID := aRun[:len(aRun)-1] + "z"
		fs, foreign := api.do(ctx, b, "GET", "/v1/sessions/"+aRun, nil)
		ms, missing := api.do(ctx, b, "GET", "/v1/sessions/"+missingID, nil)
		if fs != ms || strings.ReplaceAll(string(foreign), aRun, "ID") != strings.ReplaceAll(string(missing), missingID, "ID") {
			t.Fatalf("foreign %d %s\nmissing %d %s", fs, foreign, ms, missing)
		}
	})

	t.Run("each caller lists only the tabs it may see", func(t *testing.T) {
		for _, tc := range []struct {
			c            scopeCaller
			mine, others []string
		}{{owner, []string{aTab, userTab.ID()}, nil}, {a, []string{aTab}, []string{userTab.ID()}}, {b, nil, []string{aTab, userTab.ID()}}} {
			status, body := api.do(ctx, tc.c, "GET", "/v1/tabs", nil)
			var tabs []service.Tab
			if status != http.StatusOK || json.Unmarshal(body, &tabs) != nil {
				t.Fatalf("tabs as %s: %d %s", tc.c.name, status, body)
			}
			ids := map[string]bool{}
			for _, tb := range tabs {
				ids[tb.TargetID] = true
			}
			for _, id := range tc.mine {
				if !ids[id] {
					t.Errorf("%s does not see tab %s: %s", tc.c.name, id, body)
				}
			}
			for _, id := range tc.others {
				if ids[id] {
					t.Errorf("%s sees tab %s: %s", tc.c.name, id, body)
				}
			}
			if tc.c.id != "" && strings.Contains(string(body), "Tax questions") {
				t.Errorf("%s reads the title of the user's tab: %s", tc.c.name, body)
			}
		}
	})

	t.Run("the refusal of the user's tab says how the user grants it, in the window's words (an agent runs no ferry command)", func(t *testing.T) {
		_, body := api.do(ctx, a, "POST", "/v1/jobs", ask(func(r *service.JobRequest) { r.TabID = userTab.ID() }))
		var env errs.Envelope
		if json.Unmarshal(body, &env) != nil || !strings.Contains(env.RetryHint, "“May use my existing tabs and conversations” for this client ("+a.id+")") || errs.NamesCLI(env.RetryHint) {
			t.Fatalf("refusal %s", body)
		}
	})

	t.Run("an agent's site-only job waits as a new chat", func(t *testing.T) {
		aps, err := svc.ListApprovals(ctx, service.Owner(service.FaceCLI), service.ListApprovalsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, ap := range aps {
			if ap.ClientID == b.id {
				seen++
				if ap.Site != "chatgpt" || ap.Where != "a new chat" || ap.Continues || ap.Existing {
					t.Errorf("approval of agent B's job %+v", ap)
				}
			}
		}
		if seen != 1 {
			t.Fatalf("agent B's approvals: %d in %+v", seen, aps)
		}
	})

	t.Run("with the grant agent A may use the user's tab and the approval names it", func(t *testing.T) {
		info, err := svc.GrantClient(ctx, service.Owner(service.FaceCLI), service.GrantRequest{ID: a.id, ExistingConversations: true})
		if err != nil || !info.ExistingConversations {
			t.Fatalf("grant %+v %v", info, err)
		}
		status, body := api.do(ctx, a, "POST", "/v1/jobs", ask(func(r *service.JobRequest) { r.TabID, r.Model = userTab.ID(), "gpt-5" }))
		var j service.Job
		if status != http.StatusCreated || json.Unmarshal(body, &j) != nil || j.State != service.StateAwaitingApproval {
			t.Fatalf("job in the user's tab with the grant: %d %s", status, body)
		}
		status, body = api.do(ctx, owner, "GET", "/v1/approvals", nil)
		var aps []service.Approval
		if status != http.StatusOK || json.Unmarshal(body, &aps) != nil {
			t.Fatalf("approvals %d %s", status, body)
		}
		var ap *service.Approval
		for i := range aps {
			if aps[i].JobID == j.ID {
				ap = &aps[i]
			}
		}
		if ap == nil {
			t.Fatalf("the job is not listed: %s", body)
		}
		if ap.Site != "chatgpt" || ap.Model != "gpt-5" || !ap.Continues || !ap.Existing || ap.Where != "your existing conversation 'Tax questions'" {
			t.Fatalf("approval %+v", *ap)
		}
		if d := ap.Describe(); d != "ask chatgpt (model gpt-5) in your existing conversation 'Tax questions', continuing it" {
			t.Fatalf("described %q", d)
		}
		if _, err := svc.Reject(ctx, service.Owner(service.FaceCLI), service.RejectRequest{JobID: j.ID}); err != nil {
			t.Fatal(err)
		}
		conv := ownerJob.Detail.Run.ConversationID
		status, body = api.do(ctx, a, "POST", "/v1/jobs", service.JobRequest{Kind: service.KindCode, Prompt: "Zip it", Conversation: conv})
		if status != http.StatusCreated || json.Unmarshal(body, &j) != nil {
			t.Fatalf("code job in the owner's conversation with the grant: %d %s", status, body)
		}
		aps, err = svc.ListApprovals(ctx, service.Owner(service.FaceCLI), service.ListApprovalsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, ap := range aps {
			if ap.JobID != j.ID {
				continue
			}
			found = true
			if ap.Site != "chatgpt" || !ap.Continues || !ap.Existing || !strings.HasPrefix(ap.Where, "your existing conversation '") {
				t.Fatalf("approval of a code job continuing the owner's conversation %+v", ap)
			}
		}
		if !found {
			t.Fatalf("the code job is not listed: %+v", aps)
		}
		if _, err := svc.Reject(ctx, service.Owner(service.FaceCLI), service.RejectRequest{JobID: j.ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.GrantClient(ctx, service.Owner(service.FaceCLI), service.GrantRequest{ID: a.id}); err != nil {
			t.Fatal(err)
		}
		if status, body := api.do(ctx, a, "POST", "/v1/jobs", ask(func(r *service.JobRequest) { r.TabID = userTab.ID() })); status != http.StatusForbidden || codeOf(body) != errs.HubForbidden {
			t.Fatalf("after the grant was taken back: %d %s", status, body)
		}
	})

	t.Run("in-process an agent cannot read the settings or grant itself, and an unknown or revoked one reads nothing", func(t *testing.T) {
		if _, err := svc.Settings(ctx, service.Agent(a.id), service.SettingsRequest{}); !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("settings as agent A: %v", err)
		}
		if _, err := svc.GrantClient(ctx, service.Agent(a.id), service.GrantRequest{ID: a.id, ExistingConversations: true}); !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("agent A granting itself: %v", err)
		}
		if _, err := svc.ListSessions(ctx, service.Agent(revoked.id), service.SessionQuery{}); !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("runs of a revoked agent in-process: %v", err)
		}
		if _, err := svc.ListTabs(ctx, service.Agent("c_unknown"), service.ListTabsRequest{}); !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("tabs of an unknown agent in-process: %v", err)
		}
	})

	t.Run("the rules hold after a restart of the owner", func(t *testing.T) {
		o.stop(t)
		stopped = true
		o = startOwner(t, ctx, dir, OwnerOptions{Browser: h.Browser})
		stopped = false
		api.port = o.srv.Port()
		if status, body := api.do(ctx, a, "GET", "/v1/sessions/"+ownerRun, nil); status != http.StatusNotFound || codeOf(body) != errs.SessionNotFound {
			t.Fatalf("the owner's run as agent A after the restart: %d %s", status, body)
		}
		status, body := api.do(ctx, a, "GET", "/v1/sessions", nil)
		var got []service.SessionSummary
		if status != http.StatusOK || json.Unmarshal(body, &got) != nil || len(got) != 1 || got[0].ID != aRun {
			t.Fatalf("agent A's runs after the restart: %d %s", status, body)
		}
	})
}
