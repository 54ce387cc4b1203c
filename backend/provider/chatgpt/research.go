package chatgpt

import (
	"cmp"
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/research"
)

// Deep Research, from providers.md ("Tools", Deep Research): a send with
// the tool answers with a message of empty text whose metadata.chatgpt_sdk
// names "Deep Research App_start"; a plan follows (it starts by itself
// after a countdown of about a minute, or at once on its "Start"), then
// 5–30 minutes of research, then the report. The report is not in the
// page: it is in a sandboxed iframe from a host holding
// connector_openai_deep_research, nested in a second one, out of the
// page's reach; Ferry attaches to it through the DevTools target
// auto-attach and reads its text (it never runs the site's code). Done is
// "Research completed" in that text with at least research.MinReport
// characters of report after the header; planning panels and "Called
// tool"/"Used tool" stubs are never the report.

// ResearchHint is the system hint of a Deep Research send.
const ResearchHint = "plugin:connector_openai_deep_research"

// researchResource is metadata.chatgpt_sdk.resource_name of a research.
const researchResource = "Deep Research App_start"

// researchMemory is the research of the turn the adapter waited for.
type researchMemory struct {
	chosen  bool // the run chose the tool (ChooseTool)
	confirm bool // start the plan at once (ConfirmResearchPlan)
	started bool // the site began a research for the turn
	done    *artifact.Report
}

// ConfirmResearchPlan makes a Deep Research run start its plan at once,
// with a trusted click on the plan's "Start", instead of waiting for the
// plan's own countdown.
func (a *Adapter) ConfirmResearchPlan(on bool) { a.research.confirm = on }

// ResumeTool tells the adapter, before a reattach collects a run's turn,
// the tool the run switched on for its send (record.ToolProof.Request):
// a deep research is then followed to its report, as on the first run.
func (a *Adapter) ResumeTool(request string) { a.research.chosen = request == ResearchHint }

// researchTurn reports whether t is a Deep Research send: its request
// named the tool, or, when the request was not seen (a turn a reattach
// found), the run chose the tool or the conversation holds a research
// for the turn.
func (a *Adapter) researchTurn(ctx context.Context, t *provider.Turn) bool {
	seen, named := t.RequestNames(ResearchHint)
	switch {
	case seen:
		return named
	case a.research.chosen:
		return true
	}
	res, _ := t.Stream()
	id := cmp.Or(res.ConversationID, a.conversationInTab(ctx))
	if id == "" {
		return false
	}
	c, err := a.conversation(ctx, id)
	if err != nil {
		return false
	}
	m, _ := researchMessage(c)
	return m != nil
}

// followResearch waits, after the send's own answer is complete, for the
// research it started to deliver its report: the plan (started at once
// when asked), the research (its stage reported as partials with an empty
// text), then the report frame. A turn answered without a research
// returns at once (the run's delivery says research_not_started). Errors:
// ResearchNotStarted when the run's deadline passes while the plan waits;
// Timeout (with the stage as evidence) or Cancelled from ctx; the page's.
func (a *Adapter) followResearch(ctx context.Context, t *provider.Turn, onPartial func(provider.Partial)) error {
	a.research.started, a.research.done = false, nil
	started, err := a.researchStarted(ctx, t)
	if err != nil || !started {
		return err
	}
	a.research.started = true
	f := &research.Follower{Page: a.Page, Confirm: a.research.confirm}
	if onPartial != nil {
		f.OnStage = func(stage string) { onPartial(provider.Partial{Source: "research", Stage: stage}) }
	}
	if conv := a.researchConversation(ctx, t); conv != "" {
		f.Complete = func(ctx context.Context) bool {
			c, err := a.conversation(ctx, conv)
			return err == nil && researchComplete(c)
		}
		f.Reopen = func(ctx context.Context) error { return a.Page.Navigate(ctx, a.origin()+"/c/"+url.PathEscape(conv)) }
	}
	r, pr, err := f.Follow(ctx)
	if err != nil {
		return a.researchEnd(ctx, err, pr.Stage, pr.Planning)
	}
	a.research.done = r
	return nil
}

// researchComplete reports whether c's research says it is complete with
// its report (research.Complete of its widget_state).
func researchComplete(c *conversation) bool {
	m, _ := researchMessage(c)
	if m == nil {
		return false
	}
	sdk, _ := m.Metadata["chatgpt_sdk"].(map[string]any)
	ws, _ := sdk["widget_state"].(string)
	return research.Complete(ws)
}

// researchConversation is the id of the conversation of research turn t.
func (a *Adapter) researchConversation(ctx context.Context, t *provider.Turn) string {
	res, _ := t.Stream()
	return cmp.Or(res.ConversationID, a.conversationInTab(ctx))
}

// researchEnd is the envelope of a research that ended without its
// report: the plan still waiting when the deadline passed is
// ResearchNotStarted; otherwise ctx's end (with the stage) or err.
func (a *Adapter) researchEnd(ctx context.Context, err error, stage string, planning bool) error {
	if ctx.Err() == nil {
		return err
	}
	if planning && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errs.New(errs.ResearchNotStarted, "ChatGPT's research plan did not start before the deadline (%s)", cmp.Or(stage, "planning")).
			WithEvidence("stage", cmp.Or(stage, "planning")).WithEvidence("reason", "plan_not_started").WithEvidence("sent", "true").
			WithHint("ask again with --confirm-plan (the plan is then started at once), or press Start in the ChatGPT tab and collect the run with `ferry reattach`")
	}
	return errs.From(provider.ContextErr(ctx, "waiting for the deep research ("+cmp.Or(stage, "planning")+")")).WithEvidence("stage", cmp.Or(stage, "planning"))
}

// researchStarted reports whether the site began a research for turn t:
// its answer's metadata.chatgpt_sdk names Deep Research. A conversation
// that cannot be read leaves the page to tell (a research shows its plan).
func (a *Adapter) researchStarted(ctx context.Context, t *provider.Turn) (bool, error) {
	res, _ := t.Stream()
	for {
		id := cmp.Or(res.ConversationID, a.conversationInTab(ctx))
		if id != "" {
			if c, err := a.conversation(ctx, id); err == nil {
				if m, ok := researchMessage(c); ok {
					return m != nil, nil
				}
			}
		}
		// A found turn whose answer the site has not stored yet (a reattach
		// just after the send) is waited for; a sent one's stream ended.
		if !t.Found() {
			break
		}
		select {
		case <-ctx.Done():
			return false, provider.ContextErr(ctx, "waiting for the deep research's answer")
		case <-time.After(research.Poll):
		}
	}
	var pg research.Page
	if err := a.Page.EvalInto(ctx, &pg, research.PageJS, false); err != nil {
		return false, err
	}
	_, planning := research.Stage(pg.Text)
	return !planning || research.Planned(pg.Text), nil
}

// researchMessage is the research message of c's current turn (nil when
// the turn has none); ok is false when c holds no answer yet.
func researchMessage(c *conversation) (*message, bool) {
	m, ok := c.answer()
	if m == nil {
		return nil, ok
	}
	sdk, _ := m.Metadata["chatgpt_sdk"].(map[string]any)
	if name, _ := sdk["resource_name"].(string); name != researchResource {
		return nil, true
	}
	return m, true
}

// researchAnswer is the answer of a research turn: its report.
func (a *Adapter) researchAnswer(ctx context.Context, t *provider.Turn) *provider.Answer {
	r := a.research.done
	res, _ := t.Stream()
	ans := &provider.Answer{Text: r.Markdown, Source: artifact.ReportAnswerSource, ConversationID: cmp.Or(res.ConversationID, a.conversationInTab(ctx)), MessageID: res.MessageID}
	ans.CodeBlocks = provider.CodeBlocks(r.Markdown)
	if ans.CodeBlocks == nil {
		ans.CodeBlocks = []provider.CodeBlock{}
	}
	if ans.ConversationID != "" {
		if c, err := a.conversation(ctx, ans.ConversationID); err == nil {
			if m, _ := researchMessage(c); m != nil {
				ans.MessageID = m.ID
				if slug := m.slug(); slug != "" {
					ans.Model = provider.ModelProof{Slug: slug, Source: "conversation_api:metadata.model_slug"}
				}
			}
		}
	}
	return ans
}

// TurnReport implements artifact.ReportSource: the report of the deep
// research the turn the adapter last waited for delivered. Errors:
// ResearchNotStarted when the site answered it without a research;
// DeliverableMissing when its report was not read.
func (a *Adapter) TurnReport() (*artifact.Report, error) {
	switch {
	case a.research.done != nil:
		r := *a.research.done
		return &r, nil
	case !a.research.started:
		return nil, errs.New(errs.ResearchNotStarted, "ChatGPT answered without doing the deep research; its answer is kept in the run").
			WithEvidence("reason", "answered_without_research").WithEvidence("sent", "true")
	}
	return nil, errs.New(errs.DeliverableMissing, "the deep research's report was not read")
}

// Interface guard.
var _ artifact.ReportSource = (*Adapter)(nil)
