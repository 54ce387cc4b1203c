package core

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/store"
)

// chatgptSite is the site whose conversations a code job continues (its
// "conversation" is a ChatGPT conversation id).
const chatgptSite = "chatgpt"

// maxTitle bounds a tab's or run's title in an approval.
const maxTitle = 80

// targetOf resolves where req, a request of a caller with scope sc, would
// run: the site (from the tab or conversation when req names none), the
// tab or conversation in words, and whether it continues a conversation.
// It never fails: what cannot be resolved is said so.
func (s *Service) targetOf(ctx context.Context, sc scope, req service.JobRequest) *service.JobTarget {
	t := &service.JobTarget{Site: req.Site}
	switch {
	case req.TabID != "":
		own := sc.tabs[req.TabID]
		tab, ok := s.findTab(ctx, func(tb service.Tab) bool { return tb.TargetID == req.TabID })
		if !ok {
			t.Where, t.Existing = "tab "+service.Summarize(req.TabID, 40)+", which is not open", !own
			return t
		}
		s.describeTab(t, tab, own)
	case req.Conversation != "" && req.Kind == service.KindAsk:
		if id, err := s.h.ConversationSite(req.Conversation, req.Site); err == nil {
			t.Site = id
		}
		t.Where, t.Continues, t.Existing = "your existing conversation "+site.Redact(req.Conversation), true, true
	case req.Conversation != "":
		own := sc.convs[req.Conversation]
		if t.Site == "" {
			t.Site = chatgptSite
		}
		title := req.Conversation
		if tab, ok := s.findTab(ctx, func(tb service.Tab) bool { return strings.Contains(tb.URL, "/c/"+req.Conversation) }); ok && tab.Title != "" {
			title = tab.Title
		} else if run, ok := s.runOfConversation(req.Conversation); ok {
			title = service.Summarize(run.Prompt, maxTitle)
		}
		t.Where, t.Continues, t.Existing = whose(own)+" conversation '"+service.Summarize(title, maxTitle)+"'", true, !own
	case req.SessionID != "" && req.Kind == service.KindAsk:
		run, err := s.h.Followed(ctx, req.SessionID, req.Site)
		if err != nil {
			t.Where = "run " + service.Summarize(req.SessionID, 40) + ", which cannot be continued"
			return t
		}
		own := sc.run(run.ID) && !sc.owner
		t.Site = run.Site
		t.Where, t.Continues, t.Existing = whose(own)+" conversation '"+service.Summarize(service.Summarize(run.Prompt, maxTitle), maxTitle)+"'", true, !own
	case req.NewChat:
		t.Where = "a new chat"
	default:
		var mine []service.Tab
		s.findTab(ctx, func(tb service.Tab) bool {
			if tb.Site == req.Site {
				mine = append(mine, tb)
			}
			return false
		})
		if len(mine) != 1 {
			t.Where = "a new chat"
			return t
		}
		s.describeTab(t, mine[0], sc.tabs[mine[0].TargetID])
	}
	return t
}

// describeTab fills t for a job in tab, which the job's client opened
// when own.
func (s *Service) describeTab(t *service.JobTarget, tab service.Tab, own bool) {
	if t.Site == "" {
		t.Site = tab.Site
	}
	title := tab.Title
	if title == "" {
		title = tab.URL
	}
	t.Continues = !s.isNewChat(tab)
	noun := "tab"
	if t.Continues {
		noun = "conversation"
	}
	t.Where, t.Existing = whose(own)+" "+noun+" '"+service.Summarize(title, maxTitle)+"'", !own
}

// whose names the owner of a tab or conversation in an approval.
func whose(own bool) string {
	if own {
		return "its own"
	}
	return "your existing"
}

// findTab returns the first tab of the owner's browser that match holds
// for (none without a long-lived browser or when listing fails).
func (s *Service) findTab(ctx context.Context, match func(service.Tab) bool) (service.Tab, bool) {
	if !s.h.HasBrowser() {
		return service.Tab{}, false
	}
	tabs, err := s.h.ListTabs(ctx)
	if err != nil {
		return service.Tab{}, false
	}
	for _, tb := range tabs {
		if match(tb) {
			return tb, true
		}
	}
	return service.Tab{}, false
}

// isNewChat reports whether tab shows its site's new-chat page (or its
// bare address): a job there starts a conversation.
func (s *Service) isNewChat(tab service.Tab) bool {
	reg, err := s.c.sites()
	if err != nil {
		return false
	}
	st, err := reg.Get(tab.Site)
	if err != nil {
		return false
	}
	norm := func(u string) string { return strings.TrimRight(site.Redact(u), "/") }
	u := norm(tab.URL)
	return u == norm(st.Address) || (st.NewChat != "" && u == norm(st.NewChat))
}

// errFound stops a scan at its match.
var errFound = errors.New("found")

// runOfConversation is a run of conversation id in the history (the last
// by id, ids growing with time).
func (s *Service) runOfConversation(id string) (*job.Session, bool) {
	var out *job.Session
	err := s.c.Store().ScanReverse(store.PrefixSession, func(_, val []byte) error {
		var run job.Session
		if json.Unmarshal(val, &run) == nil && run.ConversationID == id {
			out = &run
			return errFound
		}
		return nil
	})
	return out, out != nil && (err == nil || errors.Is(err, errFound))
}
