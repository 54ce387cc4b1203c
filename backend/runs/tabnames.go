package runs

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/store"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// maxTabName bounds a tab's name.
const maxTabName = 80

// NameTabs returns env with each tab it lists (TabAmbiguous: the tabs a
// run could have used) named as the user knows it, not by id: the tab's
// own title when it says more than the site's name (a site titles a tab by
// its conversation), else the title of the conversation in Ferry's history
// (its first run's words), else "New chat" for a tab on the site's
// new-chat page, else that it is a conversation of the site Ferry has no
// record of. env itself is not changed.
func (p *Pipeline) NameTabs(env *errs.Envelope) *errs.Envelope {
	if env == nil || len(env.Tabs) == 0 {
		return env
	}
	reg, err := p.Sites()
	if err != nil {
		return env
	}
	out := *env
	out.Tabs = make([]errs.TabCandidate, len(env.Tabs))
	var history map[string]string
	read := false
	for i, t := range env.Tabs {
		if !read && !titled(reg, t) {
			history, read = p.conversationTitles(), true
		}
		t.Title = tabName(reg, t, history)
		out.Tabs[i] = t
	}
	return &out
}

// titled reports whether tab t's own title names it (more than its
// site's name or its address).
func titled(reg *site.Registry, t errs.TabCandidate) bool {
	title := strings.TrimSpace(t.Title)
	if title == "" || strings.Contains(title, "://") {
		return false
	}
	if u, err := url.Parse(t.URL); err == nil && u.Host != "" && strings.HasPrefix(title, u.Host) {
		return false
	}
	if s, ok := reg.ForURL(t.URL); ok && strings.EqualFold(title, s.Name) {
		return false
	}
	return true
}

// tabName is what tab t is called (see NameTabs); history maps a
// conversation's key (conversationKey) to its title in Ferry's history.
func tabName(reg *site.Registry, t errs.TabCandidate, history map[string]string) string {
	if titled(reg, t) {
		return service.Summarize(t.Title, maxTabName)
	}
	if title := history[conversationKey(t.URL)]; title != "" {
		return title
	}
	s, ok := reg.ForURL(t.URL)
	if !ok {
		return "A tab on no chat site Ferry knows"
	}
	if tabs.ConversationOf(s, t.URL) == "" || (s.NewChat != "" && tabs.SameConversation(t.URL, s.NewChat)) {
		return "New chat"
	}
	return "A " + s.Name + " conversation Ferry has no record of"
}

// conversationKey is the host and path of a conversation's address: the
// same for every address of the conversation, whatever its query.
func conversationKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Host + strings.TrimSuffix(u.Path, "/")
}

// conversationTitles maps each conversation of Ferry's history (by
// conversationKey) to the words of its first run, clipped (nil when the
// history cannot be read). The first run is the one created first: ids
// sort by the second only, so two runs of one second come in either order.
func (p *Pipeline) conversationTitles() map[string]string {
	type first struct {
		created time.Time
		title   string
	}
	firsts := map[string]first{}
	err := p.d.Store().ScanReverse(store.PrefixSession, func(_, val []byte) error {
		var run job.Session
		if json.Unmarshal(val, &run) != nil || run.ConversationURL == "" {
			return nil
		}
		key := conversationKey(run.ConversationURL)
		if key == "" {
			return nil
		}
		if f, ok := firsts[key]; ok && !run.Created.Before(f.created) {
			return nil
		}
		firsts[key] = first{run.Created, service.Summarize(run.Title(), maxTabName)}
		return nil
	})
	if err != nil {
		return nil
	}
	out := make(map[string]string, len(firsts))
	for k, f := range firsts {
		out[k] = f.title
	}
	return out
}
