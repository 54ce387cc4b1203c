package runs

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/site"
)

// Where a chat goes: the site's temporary chat (Temporary), and the
// conversation archived once its answer is safe (ArchiveAfter).

// temporaryChat is reg with req's site opening its temporary chat as its
// new chat, and req made a new chat. Errors: BadInput for a temporary chat
// that would continue a tab or a conversation, or archive what the site
// keeps no history of; CapabilityMissing for a site without one.
func temporaryChat(reg *site.Registry, req *AskRequest) (*site.Registry, error) {
	switch {
	case req.Site == "" || req.TargetID != "" || req.Continue != "":
		return nil, errs.New(errs.BadInput, "a temporary chat is a new chat: it needs a site, and neither a tab nor a conversation to continue").
			WithHint("drop --tab, --session and --conv, or drop --temporary")
	case req.ArchiveAfter:
		return nil, errs.New(errs.BadInput, "a temporary chat leaves no history on the site, so there is nothing to archive").
			WithHint("drop --archive-after or --temporary")
	}
	st, err := reg.Get(req.Site)
	if err != nil {
		return nil, err
	}
	if st.TemporaryChat == "" {
		return nil, errs.New(errs.CapabilityMissing, "%s has no temporary chat Ferry knows of", st.Name).
			WithHint("ask without --temporary").WithEvidence("site", st.ID)
	}
	req.NewChat = true
	return reg.Merge(site.Override{ID: st.ID, NewChat: st.TemporaryChat})
}

// provedTemporary checks that the tab opened on the site's temporary chat
// shows it (its address still asks for it): a site that sent the tab to
// an ordinary chat instead would keep the conversation. Errors:
// CapabilityMissing naming the address shown; the page's errors.
func provedTemporary(ctx context.Context, page *browser.Page, st site.Site) error {
	want, err := url.Parse(st.TemporaryChat)
	if err != nil {
		return errs.Wrap(err, errs.ConfigInvalid, "the temporary chat address of %s does not parse", st.ID)
	}
	info, err := page.Info(ctx)
	if err != nil {
		return err
	}
	shown := info.URL
	u, err := url.Parse(shown)
	if err == nil && u.Host == want.Host && u.Path == want.Path && u.RawQuery == want.RawQuery {
		return nil
	}
	return errs.New(errs.CapabilityMissing, "%s did not open a temporary chat (the tab shows %s); nothing was sent", st.Name, clipURL(shown)).
		WithHint("open a temporary chat in the site by hand to see why (the plan, a workspace policy), or ask without --temporary")
}

func clipURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "an address that does not parse"
	}
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}

// Archiver is the optional capability of an adapter whose site can archive
// a conversation (ChatGPT's PATCH of is_archived). Archive archives
// conversation id and says whether the site confirmed it.
type Archiver interface {
	Archive(ctx context.Context, conversationID string) error
}

// TemporaryForgetter is the optional capability of an adapter whose
// temporary chats leave state in the browser that piles up (ChatGPT's
// conv_key_<id> cookies, until requests fail on their header size):
// ForgetTemporary removes that of conversation id.
type TemporaryForgetter interface {
	ForgetTemporary(ctx context.Context, conversationID string) error
}

// placeRef is the place an ask asked its new chat to open in.
type placeRef struct{ kind, ref string }

// placeAsked reads req's Project or GPT and makes req a new chat. Errors:
// BadInput for both, or either with a tab, a conversation to continue or a
// temporary chat.
func placeAsked(req *AskRequest) (placeRef, error) {
	p := placeRef{kind: "project", ref: strings.TrimSpace(req.Project)}
	if g := strings.TrimSpace(req.GPT); g != "" {
		if p.ref != "" {
			return p, errs.New(errs.BadInput, "a chat opens in a project or in a custom GPT, not both").WithHint("drop --project or --gpt")
		}
		p = placeRef{kind: "gpt", ref: g}
	}
	if p.ref == "" {
		return p, nil
	}
	if req.Site == "" || req.TargetID != "" || req.Continue != "" || req.Temporary {
		return p, errs.New(errs.BadInput, "a chat in a %s is a new chat on a named site: it takes no tab, no conversation to continue and no temporary chat", placeWord(p.kind)).
			WithHint("give --site and drop --tab, --session, --conv and --temporary")
	}
	req.NewChat = true
	return p, nil
}

func placeWord(kind string) string {
	if kind == "gpt" {
		return "custom GPT"
	}
	return kind
}

// Placer is the optional capability of an adapter whose site files chats
// in places of their own (ChatGPT's projects and custom GPTs): Place
// resolves a reference of kind "project" or "gpt" to the address a new
// chat in it opens on.
type Placer interface {
	Place(ctx context.Context, kind, ref string) (record.Place, error)
}

// ProjectLister is the optional capability of an adapter whose site has
// projects (ChatGPT's): Projects lists the account's, as its page does.
type ProjectLister interface {
	Projects(ctx context.Context) ([]record.Place, error)
}

// SourceAdder is the optional capability of an adapter whose site keeps
// files with a project (ChatGPT's project sources). SourcesProject
// resolves a project as Placer does, naming it also when ref is its
// address. AddSources adds files (each under its base name) to project's
// sources through the page, waiting at most patience for the uploads and
// their proof; it returns the files (SiteName set where the site shows
// another name) and each one's verdict: nil for a file the project's list
// shows, errs.AttachmentRejected with the site's words, or
// errs.AttachmentUnconfirmed. Its error is for the whole, nothing added.
type SourceAdder interface {
	SourcesProject(ctx context.Context, ref string) (record.Place, error)
	AddSources(ctx context.Context, project record.Place, files []attach.File, patience time.Duration) ([]attach.File, []error, error)
}

// openPlace resolves p through a and opens page on it, proven by the
// address the page then shows. Errors: CapabilityMissing for a site
// without places, or a page that did not stay there; the Placer's; the
// navigation's. Nothing is sent either way.
func openPlace(ctx context.Context, page *browser.Page, a provider.Adapter, p placeRef) (*record.Place, error) {
	pl, ok := a.(Placer)
	if !ok {
		return nil, errs.New(errs.CapabilityMissing, "%s has no %s Ferry knows of; nothing was sent", a.Site().Name, placeWord(p.kind)).
			WithHint("ask without --project or --gpt")
	}
	place, err := pl.Place(ctx, p.kind, p.ref)
	if err != nil {
		return nil, err
	}
	if err := page.Navigate(ctx, place.Address); err != nil {
		return nil, err
	}
	info, err := page.Info(ctx)
	if err != nil {
		return nil, err
	}
	want, _ := url.Parse(place.Address)
	if u, err := url.Parse(info.URL); err != nil || want == nil || u.Host != want.Host || u.Path != want.Path {
		return nil, errs.New(errs.CapabilityMissing, "%s did not open the %s at %s (the tab shows %s); nothing was sent", a.Site().Name, placeWord(p.kind), place.Address, clipURL(info.URL)).
			WithHint("open it in the site by hand to see why (access, a deleted %s), or ask without it", placeWord(p.kind))
	}
	return &place, nil
}

// filedIn reports whether conversation address conv lies in place: a
// project's chats under its /g/<short_url>/c/, a GPT's under its /g/<short>/c/.
func filedIn(place *record.Place, conv string) bool {
	pu, err := url.Parse(place.Address)
	cu, cerr := url.Parse(conv)
	if err != nil || cerr != nil || pu.Host != cu.Host {
		return false
	}
	return strings.HasPrefix(cu.Path, strings.TrimSuffix(pu.Path, "/project")+"/c/")
}

// askDelivery is an ask's Deliverable: a deep research's report or the
// turn's images (AskHome),
// then, with archive, the conversation archived on the site (the answer is
// in the record since the run was extracted); a failed archive is a
// warning.
func (p *Pipeline) askDelivery(archive bool) job.Deliverable {
	images := AskHome(p.imagesDir(), p.d.Settings().Artifacts.MaxZipBytes)
	return func(ctx context.Context, s *job.Session, a provider.Adapter) (job.Delivery, error) {
		d, err := images(ctx, s, a)
		if s.Place != nil {
			if d.Filed = filedIn(s.Place, s.ConversationURL); !d.Filed {
				d.Warnings = append(d.Warnings, fmt.Sprintf("the conversation (%s) is not filed under the %s asked for (%s)", clipURL(s.ConversationURL), placeWord(s.Place.Kind), s.Place.Address))
			}
		}
		if err != nil || !archive {
			return d, err
		}
		ar, ok := a.(Archiver)
		switch {
		case !ok:
			err = errs.New(errs.CapabilityMissing, "%s has no archive Ferry knows of", a.Site().Name)
		case s.ConversationID == "":
			err = errs.New(errs.ArtifactNotFound, "the run has no conversation id")
		default:
			err = ar.Archive(ctx, s.ConversationID)
		}
		if err != nil {
			d.Warnings = append(d.Warnings, fmt.Sprintf("the conversation was not archived (%s): %s", errs.CodeOf(err), errs.From(err).Message))
			return d, nil
		}
		d.Archived = true
		return d, nil
	}
}
