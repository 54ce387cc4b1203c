package mcp

import (
	"cmp"
	"context"
	"strings"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// AskInput is the ask tool's input.
type AskInput struct {
	Site        string `json:"site,omitempty" jsonschema:"the site to ask, e.g. chatgpt, claude, gemini (the sites tool lists them); needed unless session is given"`
	Prompt      string `json:"prompt" jsonschema:"the prompt, sent as is"`
	Model       string `json:"model,omitempty" jsonschema:"the model alias; the site's default when left out"`
	Effort      string `json:"effort,omitempty" jsonschema:"the reasoning-effort tier on a site whose picker has tiers (chatgpt: instant, medium, high, extra-high, pro; deepseek: standard, deepthink); what is selected when left out"`
	Tool        string `json:"tool,omitempty" jsonschema:"a tool of the site's composer to switch on for the prompt (chatgpt: web-search, deep-research, image); the run is refused with nothing sent when the tool cannot be switched on and proven; none when left out"`
	ConfirmPlan bool   `json:"confirm_plan,omitempty" jsonschema:"with tool deep-research: start the research plan at once instead of after its countdown of about a minute"`
	// Temporary and ArchiveAfter say where the chat goes.
	Temporary    bool     `json:"temporary,omitempty" jsonschema:"ask in the site's temporary chat, which it keeps no history of (chatgpt; needs site and new_chat or no session); the run cannot be continued"`
	ArchiveAfter bool     `json:"archive_after,omitempty" jsonschema:"archive the conversation on the site once the answer is safe in Ferry's history (chatgpt)"`
	Project      string   `json:"project,omitempty" jsonschema:"open the new chat in this ChatGPT project: its address or its name"`
	GPT          string   `json:"gpt,omitempty" jsonschema:"open the new chat in this custom GPT: its address https://chatgpt.com/g/g-…"`
	NewChat      bool     `json:"new_chat,omitempty" jsonschema:"ask in a fresh chat (always the case without session unless the user let this agent use their open tabs)"`
	Session      string   `json:"session,omitempty" jsonschema:"continue the conversation of this run (a run id from sessions or a job's session)"`
	WaitS        *int     `json:"wait_s,omitempty" jsonschema:"how long the call may wait for the answer, 0 to 300 seconds (default 50); past it the call returns state running and the job tool follows it"`
	Files        []string `json:"files,omitempty" jsonschema:"absolute paths of files to attach (under the folders the user allowed this agent); the prompt is sent only once each shows in the site's composer, ready"`
}

// ImageInput is the image tool's input.
type ImageInput struct {
	Prompt  string   `json:"prompt" jsonschema:"what the image should show, sent as is"`
	Site    string   `json:"site,omitempty" jsonschema:"the site that makes it (default chatgpt, through its Create image tool)"`
	Session string   `json:"session,omitempty" jsonschema:"continue the conversation of this run (to change an image it made)"`
	WaitS   *int     `json:"wait_s,omitempty" jsonschema:"how long the call may wait, 0 to 300 seconds (default 50); an image takes 15 s to minutes: past it the call returns state running and the job tool follows it"`
	Files   []string `json:"files,omitempty" jsonschema:"absolute paths of images or files to attach (under the folders the user allowed this agent)"`
}

// ResearchInput is the research tool's input.
type ResearchInput struct {
	Prompt      string   `json:"prompt" jsonschema:"the research question, sent as is"`
	Site        string   `json:"site,omitempty" jsonschema:"the site that researches (default chatgpt, through its Deep research tool)"`
	WaitS       *int     `json:"wait_s,omitempty" jsonschema:"how long the call may wait, 0 to 300 seconds (default 50); research takes minutes: the call returns state running and the job tool follows it"`
	ConfirmPlan bool     `json:"confirm_plan,omitempty" jsonschema:"start the research plan at once instead of after its countdown of about a minute"`
	Files       []string `json:"files,omitempty" jsonschema:"absolute paths of files to attach (under the folders the user allowed this agent)"`
}

// CodeInput is the code tool's input.
type CodeInput struct {
	Task        string   `json:"task" jsonschema:"what to build or change; the site answers with zips that Ferry verifies"`
	Zip         string   `json:"zip" jsonschema:"one: a single zip; multi: one zip per part"`
	Site        string   `json:"site,omitempty" jsonschema:"the site to ask (default chatgpt: code mode needs a site that makes sandbox zips)"`
	Contract    string   `json:"contract,omitempty" jsonschema:"the output contract of the answer (default code)"`
	AllowInline bool     `json:"allow_inline,omitempty" jsonschema:"accept files given inline in the answer when no zip comes"`
	Goal        string   `json:"goal,omitempty" jsonschema:"the goal the answer must meet, stated to the site"`
	Research    bool     `json:"research,omitempty" jsonschema:"let the site research before it answers"`
	OutDir      string   `json:"out_dir,omitempty"`
	Files       []string `json:"files,omitempty" jsonschema:"absolute paths of files to attach to the task (under the folders the user allowed this agent)"`
	WaitS       *int     `json:"wait_s,omitempty" jsonschema:"how long the call may wait, 0 to 300 seconds (default 50); past it the call returns state running and the job tool follows it"`
}

// JobInput is the job tool's input.
type JobInput struct {
	JobID string `json:"job_id" jsonschema:"the job's id, as ask or code returned it"`
	WaitS *int   `json:"wait_s,omitempty" jsonschema:"how long the call may wait for the job to end, 0 to 300 seconds (default 50)"`
}

// CancelInput is the cancel tool's input.
type CancelInput struct {
	JobID string `json:"job_id" jsonschema:"the job to stop"`
}

// JobResult is a job as the ask, code, job and cancel tools return it.
type JobResult struct {
	JobID string `json:"job_id" jsonschema:"the job's id: pass it to the job tool"`
	Kind  string `json:"kind" jsonschema:"ask or code"`
	State string `json:"state" jsonschema:"running, awaiting_approval, queued, done, failed or cancelled"`
	Done  bool   `json:"done" jsonschema:"the job has ended and will not change"`
	// RunState is the run's own journal state.
	RunState string `json:"run_state,omitempty" jsonschema:"the run's journal state (submitted, streaming, extracted…)"`
	// AwaitingApproval says the user must approve the job in Ferry first.
	AwaitingApproval bool    `json:"awaiting_approval,omitempty" jsonschema:"the user must approve the job in Ferry before anything is sent"`
	Waiting          string  `json:"waiting,omitempty" jsonschema:"what a queued job waits for"`
	Session          string  `json:"session,omitempty" jsonschema:"the run's id (for session, and for ask's session to continue its conversation)"`
	Site             string  `json:"site,omitempty"`
	Model            string  `json:"model,omitempty" jsonschema:"the model that answered, as the site showed it"`
	Conversation     string  `json:"conversation_url,omitempty"`
	Answer           string  `json:"answer,omitempty" jsonschema:"the final answer, or the answer so far while partial is true"`
	Partial          bool    `json:"partial,omitempty" jsonschema:"answer is the answer so far, not the final one"`
	Zips             []Zip   `json:"zips,omitempty" jsonschema:"a code job's zips, each with its verdict"`
	Images           []Image `json:"images,omitempty" jsonschema:"the images the answer's turn generated, each with its verdict (also sent as image content)"`
	// Receipt is a code job's receipt.
	Receipt *service.CodeReceipt `json:"receipt,omitempty" jsonschema:"a code job's receipt: the proof layers, steps and zips"`
	Error   *errs.Envelope       `json:"error,omitempty" jsonschema:"why the job failed"`
}

// Zip is one zip of a code job or a retrieval.
type Zip struct {
	Path     string `json:"path,omitempty" jsonschema:"where the zip was saved"`
	SHA256   string `json:"sha256,omitempty"`
	Verified bool   `json:"verified" jsonschema:"Ferry's verifier passed the zip"`
	Verdict  string `json:"verdict" jsonschema:"verified, quarantined or failed"`
	Files    int    `json:"files,omitempty"`
	Size     int64  `json:"size,omitempty"`
	Resource string `json:"resource,omitempty" jsonschema:"the ferry://artifact/{sha256} resource with its file list and provenance"`
	Error    string `json:"error,omitempty"`
}

// The tools' state words for a job still going on.
const (
	StateRunning = "running"
)

func (s *Server) addJobTools() {
	addTool(s, &mcpsdk.Tool{Name: "ask", Title: "Ask a chat site",
		Description: "Send a prompt to one of the user's logged-in AI chat sites in their browser and return the answer. " +
			"Returns within wait_s: state running means poll the job tool with job_id; awaiting_approval means the user must approve it in Ferry first. " +
			"A site that is logged out or behind a check fails at once with what the user must do; nothing is sent then."},
		s.ask)
	addTool(s, &mcpsdk.Tool{Name: "image", Title: "Make an image",
		Description: "Ask a chat site's image tool (ChatGPT's Create image, switched on and proven before anything is sent) for an image; " +
			"returns each image Ferry saved and proved by its bytes (path, sha256, type, size) and, once the job is done, the images themselves as image content. " +
			"A refused image is an error in the site's words. Returns within wait_s like ask."},
		s.image)
	addTool(s, &mcpsdk.Tool{Name: "research", Title: "Research a question",
		Description: "Run a chat site's deep research (ChatGPT's Deep research, switched on and proven before anything is sent) on a question in a new chat; " +
			"research takes minutes, so the call usually returns state running: poll the job tool with job_id for the report."},
		s.research)
	addTool(s, &mcpsdk.Tool{Name: "code", Title: "Ask for verified code zips",
		Description: "Ask ChatGPT (code mode) for a task's result as zips, which Ferry retrieves and verifies; returns the zips' saved paths, sha256, verdicts and the receipt. " +
			s.outDirRule() + " Returns within wait_s like ask."},
		s.code)
	addTool(s, &mcpsdk.Tool{Name: "job", Title: "Follow a job",
		Description: "Read a job started by ask or code (also by an earlier Ferry MCP process): its state, the answer so far or the final answer, its zips and its error. Waits up to wait_s for it to end."},
		s.job)
	addTool(s, &mcpsdk.Tool{Name: "cancel", Title: "Cancel a job",
		Description: "Stop a job of this agent and return its new state."},
		s.cancel)
}

func (s *Server) ask(ctx context.Context, c call, in AskInput) (JobResult, string, error) {
	wait, err := waitFor(in.WaitS)
	if err != nil {
		return JobResult{}, "", err
	}
	req := service.JobRequest{Kind: service.KindAsk, Site: strings.TrimSpace(in.Site), Prompt: in.Prompt, Model: in.Model, Effort: in.Effort, Tool: strings.TrimSpace(in.Tool), ConfirmPlan: in.ConfirmPlan,
		NewChat: in.NewChat || in.Temporary || in.Project != "" || in.GPT != "", Files: in.Files,
		Temporary: in.Temporary, ArchiveAfter: in.ArchiveAfter, Project: strings.TrimSpace(in.Project), GPT: strings.TrimSpace(in.GPT)}
	// A follow-up: the run's site and conversation, in the tab that shows
	// it or one navigated to it.
	req.SessionID = strings.TrimSpace(in.Session)
	j, err := s.svc.SubmitJob(ctx, c.caller, req)
	if err != nil {
		return JobResult{}, "", err
	}
	return s.follow(ctx, c, j, wait)
}

func (s *Server) image(ctx context.Context, c call, in ImageInput) (JobResult, string, error) {
	return s.ask(ctx, c, AskInput{Site: cmp.Or(strings.TrimSpace(in.Site), "chatgpt"), Prompt: in.Prompt, Tool: "image",
		NewChat: in.Session == "", Session: in.Session, WaitS: in.WaitS, Files: in.Files})
}

func (s *Server) research(ctx context.Context, c call, in ResearchInput) (JobResult, string, error) {
	return s.ask(ctx, c, AskInput{Site: cmp.Or(strings.TrimSpace(in.Site), "chatgpt"), Prompt: in.Prompt, Tool: "deep-research", ConfirmPlan: in.ConfirmPlan,
		NewChat: true, WaitS: in.WaitS, Files: in.Files})
}

func (s *Server) code(ctx context.Context, c call, in CodeInput) (JobResult, string, error) {
	wait, err := waitFor(in.WaitS)
	if err != nil {
		return JobResult{}, "", err
	}
	if in.Zip != "one" && in.Zip != "multi" {
		return JobResult{}, "", errs.New(errs.BadInput, "zip must be one or multi, got %q", in.Zip).WithHint("set zip to \"one\" or \"multi\"")
	}
	out, err := s.checkOutDir(in.OutDir)
	if err != nil {
		return JobResult{}, "", err
	}
	site := strings.TrimSpace(in.Site)
	if site == "" {
		site = "chatgpt"
	}
	req := service.JobRequest{Kind: service.KindCode, Site: site, Prompt: in.Task, Contract: in.Contract, MultiZip: in.Zip == "multi",
		AllowInline: in.AllowInline, Goal: in.Goal, Research: in.Research, NewChat: true, Files: in.Files}
	j, err := s.svc.SubmitJob(ctx, c.caller, req)
	if err != nil {
		return JobResult{}, "", err
	}
	if out != "" {
		s.remember(j.ID, out)
	}
	return s.follow(ctx, c, j, wait)
}

func (s *Server) job(ctx context.Context, c call, in JobInput) (JobResult, string, error) {
	wait, err := waitFor(in.WaitS)
	if err != nil {
		return JobResult{}, "", err
	}
	j, err := s.svc.GetJob(ctx, c.caller, service.JobRef{ID: in.JobID})
	if err != nil {
		return JobResult{}, "", err
	}
	return s.follow(ctx, c, j, wait)
}

func (s *Server) cancel(ctx context.Context, c call, in CancelInput) (JobResult, string, error) {
	j, err := s.svc.CancelJob(ctx, c.caller, service.JobRef{ID: in.JobID})
	if err != nil {
		return JobResult{}, "", err
	}
	r := s.result(j)
	return r, describe(r), nil
}
