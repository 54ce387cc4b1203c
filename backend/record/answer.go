package record

// ModelProof says which model answered and where that was read.
type ModelProof struct {
	Requested string `json:"requested"`          // the alias asked for
	Selected  string `json:"selected,omitempty"` // the picker label chosen
	Effort    string `json:"effort,omitempty"`   // the effort tier asked for
	Slug      string `json:"slug,omitempty"`     // the model the site named
	Source    string `json:"source,omitempty"`   // e.g. "stream:metadata.model_slug"
	DOMSlug   string `json:"domSlug,omitempty"`  // the page's own attribute, when it has one
	// Verified is true when the alias has proof substrings and the slug
	// contains one of them.
	Verified bool `json:"verified"`
}

// ToolProof is the proof that a tool the run asked for was on when the
// prompt was sent: the site's tool, the words of the pill the composer
// showed for it with the prompt unchanged, and what the send named it by.
type ToolProof struct {
	Requested string `json:"requested"`          // the tool asked for ("web-search")
	Selected  string `json:"selected,omitempty"` // the pill's words ("Web search")
	Request   string `json:"request,omitempty"`  // what the send names it by ("search")
	Verified  bool   `json:"verified"`
}

// CodeBlock is one fenced code block of an answer.
type CodeBlock struct {
	Language string `json:"language,omitempty"`
	Code     string `json:"code"`
}

// Routing is the proof that the tab asked for is the tab that was driven.
type Routing struct {
	RequestedTabID  string `json:"requested_tab_id,omitempty"`
	ControlledTabID string `json:"controlled_tab_id"`
	TabWasCreated   bool   `json:"tab_was_created"`
	Mismatch        bool   `json:"mismatch"`
	URL             string `json:"url,omitempty"` // redacted
}

// Transport says how the end of the turn was seen.
type Transport struct {
	Source         string `json:"source"` // "stream" or "dom"
	Decoder        string `json:"decoder,omitempty"`
	CompleteReason string `json:"complete_reason"`
	StreamBytes    int    `json:"stream_bytes,omitempty"`
	Partials       int    `json:"partials"`
	// HandedOff: the response handed the turn to the page's WebSocket
	// (ChatGPT's stream_handoff), and SocketItems stream items were taken
	// from the socket (counted in StreamBytes with the response's bytes).
	HandedOff   bool `json:"handed_off,omitempty"`
	SocketItems int  `json:"socket_items,omitempty"`
}

// Content identifies the answer text.
type Content struct {
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	Runes  int    `json:"runes"`
	Source string `json:"source"`
}

// Timings are the durations of the phases of a run, in milliseconds.
type Timings struct {
	ReadyMS    int64 `json:"ready_ms"`
	ComposeMS  int64 `json:"compose_ms"`
	SubmitMS   int64 `json:"submit_ms"`
	WaitMS     int64 `json:"wait_ms"`
	ExtractMS  int64 `json:"extract_ms"`
	TotalMS    int64 `json:"total_ms"`
	FirstTextM int64 `json:"first_text_ms,omitempty"` // from send to the first partial text
}

// Partial is one partial-text update of an answer.
type Partial struct {
	Text      string `json:"text"`      // the answer so far
	Added     string `json:"added"`     // what this update adds
	Rewritten bool   `json:"rewritten"` // Text does not extend the previous update
	Source    string `json:"source"`    // "stream", "dom", or "research" for a stage
	// Stage is where a long run stands, in a few words, when the update
	// reports that rather than text (a deep research: "planning",
	// "researching, 120 sources"); Text is then the answer so far.
	Stage string `json:"stage,omitempty"`
}

// Result is an answer with its proof: what a run that reached done
// recorded (see Run.Result), in the shape `ferry ask --json` prints.
type Result struct {
	Site           string      `json:"site"`
	Answer         string      `json:"answer"`
	CodeBlocks     []CodeBlock `json:"codeBlocks"`
	Model          ModelProof  `json:"model"`
	Tool           *ToolProof  `json:"tool,omitempty"`
	Routing        Routing     `json:"routing"`
	Transport      Transport   `json:"transport"`
	Content        Content     `json:"content"`
	ConversationID string      `json:"conversationId,omitempty"`
	MessageID      string      `json:"messageId,omitempty"`
	Timings        Timings     `json:"timings"`
	Warnings       []string    `json:"warnings,omitempty"`
	// Images are the images the turn generated, as the run saved them (or
	// rejected them).
	Images []Artifact `json:"images,omitempty"`
	// Temporary and Archived say where the chat went (see Run).
	Temporary bool   `json:"temporary,omitempty"`
	Archived  bool   `json:"archived,omitempty"`
	Place     *Place `json:"place,omitempty"`
	// Report is the report a deep research delivered, as the run saved
	// it (Markdown; the answer holds the same text).
	Report *Artifact `json:"report,omitempty"`
}

// Result is the answer of run r with its proof, in the shape `ferry ask
// --json` prints. It is what the run recorded: a run that did not reach
// done may lack the answer or proofs (they are zero); code blocks are
// never nil.
func (r *Run) Result() Result {
	res := Result{Site: r.Site, Answer: r.Answer, CodeBlocks: r.CodeBlocks, Model: r.Model, Tool: r.Tool,
		ConversationID: r.ConversationID, MessageID: r.MessageID, Warnings: r.Warnings, Temporary: r.Temporary, Archived: r.Archived, Place: r.Place}
	if res.CodeBlocks == nil {
		res.CodeBlocks = []CodeBlock{}
	}
	for _, a := range r.Artifacts {
		switch a.Kind {
		case ArtifactImage:
			res.Images = append(res.Images, a)
		case ArtifactReport:
			res.Report = &a
		}
	}
	if r.Routing != nil {
		res.Routing = *r.Routing
	}
	if r.Transport != nil {
		res.Transport = *r.Transport
	}
	if r.Content != nil {
		res.Content = *r.Content
	}
	if r.Timings != nil {
		res.Timings = *r.Timings
	}
	return res
}

// Policies are the interstitial policies r applied (its policy receipts:
// kind, trigger, action, cooldown_ms, retry_of, ...), in order; empty, not
// nil, when the site never interfered.
func (r *Run) Policies() []map[string]string {
	out := []map[string]string{}
	for _, rc := range r.Receipts {
		if rc.Layer == "policy" {
			out = append(out, rc.Data)
		}
	}
	return out
}

// ToolAsked is the site's tool the run asked for ("web-search"), "" for
// none: ToolRequested, else the tool its proof names.
func (r *Run) ToolAsked() string {
	if r.ToolRequested == "" && r.Tool != nil {
		return r.Tool.Requested
	}
	return r.ToolRequested
}

// Title is what a run is called by: the user's own words (Task when the
// prompt sent was composed around them, else the prompt).
func (r *Run) Title() string {
	if r.Task != "" {
		return r.Task
	}
	return r.Prompt
}
