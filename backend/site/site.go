// Package site is Ferry's registry of AI chat sites: for each site its id,
// name and address, the CSS selectors for every part of the page Ferry
// touches (several per role, first match wins), how to type into it, which
// network stream carries the answer, and which features each model alias
// offers. Built-in sites register from their own folders (provider/<vendor>,
// linked in by provider/all) through Register; user settings override
// them field by field or add custom sites, and the result is validated so
// that a half-defined site fails with a message naming what is missing.
//
// The package also guards URLs: a tab is bound to its site's exact origin
// (and path prefix), and work pauses while the tab is elsewhere.
package site

// Role names a part of a site's page that Ferry finds by selector.
type Role string

// The selector roles. Each role holds an ordered list of CSS selectors; the
// first that matches a visible element wins.
const (
	RoleComposer      Role = "composer"       // the prompt editor
	RoleSend          Role = "send"           // the send button
	RoleStop          Role = "stop"           // the stop button, present while generating
	RoleBusy          Role = "busy"           // any other sign that an answer is being generated
	RoleUserTurn      Role = "user_turn"      // one user message in the thread
	RoleAssistantTurn Role = "assistant_turn" // one assistant message in the thread
	RoleAnswerBody    Role = "answer_body"    // the rendered answer inside an assistant turn
	RoleCodeBlock     Role = "code_block"     // a code block inside an answer
	RoleFinished      Role = "finished"       // the action bar shown under a finished answer
	RoleModelPicker   Role = "model_picker"   // the control that opens the model menu
	RoleModelItem     Role = "model_item"     // one entry of the model menu
	RoleLoggedIn      Role = "logged_in"      // present only when a user is logged in
	RoleLoggedOut     Role = "logged_out"     // present only when no user is logged in
	RoleFileInput     Role = "file_input"     // the <input type=file> for attachments
	RoleErrorText     Role = "error_text"     // an error rendered in the thread
	RoleNewChat       Role = "new_chat"       // the control that starts a new chat
	RoleThoughts      Role = "thoughts"       // reasoning shown in the thread: never answer text
	RoleReady         Role = "ready"          // present once the app finished loading
	RoleTokenCount    Role = "token_count"    // a counter that shows the page registered the typed prompt (AI Studio)
)

// Roles lists every role in a stable order.
func Roles() []Role {
	return []Role{
		RoleComposer, RoleSend, RoleStop, RoleBusy, RoleUserTurn, RoleAssistantTurn, RoleAnswerBody,
		RoleCodeBlock, RoleFinished, RoleModelPicker, RoleModelItem, RoleLoggedIn, RoleLoggedOut,
		RoleFileInput, RoleErrorText, RoleNewChat, RoleThoughts, RoleReady, RoleTokenCount,
	}
}

// RequiredRoles are the roles without which Ferry cannot type a prompt,
// send it, and tell when the answer is finished from the DOM alone. Every
// site, built-in or custom, has a selector for each.
func RequiredRoles() []Role {
	return []Role{RoleComposer, RoleSend, RoleStop, RoleAssistantTurn, RoleAnswerBody, RoleFinished}
}

// AskRoles are the roles a plain ask (no model chosen, no files) may use
// on any site: the required ones and those that tell its state (busy,
// turns, login, errors, thoughts, readiness). The other roles serve a
// feature, and each site lists those it defines in Site.Optional.
func AskRoles() []Role {
	return []Role{
		RoleComposer, RoleSend, RoleStop, RoleBusy, RoleUserTurn, RoleAssistantTurn, RoleAnswerBody,
		RoleCodeBlock, RoleFinished, RoleLoggedIn, RoleLoggedOut, RoleErrorText, RoleNewChat,
		RoleThoughts, RoleReady, RoleTokenCount,
	}
}

// Blocks is the feature that needs role on the site when the role is
// optional there ("" for a role a plain ask uses).
func (s Site) Blocks(role Role) Feature { return s.Optional[role] }

// Typing is a way of entering text that the page's editor framework notices.
type Typing string

// The typing strategies, from the reference's order of preference.
const (
	// TypingInsertText: a trusted click on the editor, focus, caret at the
	// end, then CDP Input.insertText (ProseMirror, Tiptap).
	TypingInsertText Typing = "insert_text"
	// TypingExecCommand: select the editor's content, then
	// document.execCommand('insertText') (ProseMirror, Quill, Lexical).
	TypingExecCommand Typing = "exec_command"
	// TypingNativeSetter: for a <textarea>, the prototype's value setter,
	// then input and change events (React, Angular).
	TypingNativeSetter Typing = "native_setter"
	// TypingInputEvent: set textContent/value, then dispatch an InputEvent
	// of type insertFromPaste. The last resort.
	TypingInputEvent Typing = "input_event"
)

var knownTyping = map[Typing]bool{
	TypingInsertText: true, TypingExecCommand: true, TypingNativeSetter: true, TypingInputEvent: true,
}

// SendMethod is how a prompt is submitted.
type SendMethod string

// The send methods.
const (
	SendClick     SendMethod = "click"      // a trusted click on the send control
	SendEnter     SendMethod = "enter"      // Enter in the composer
	SendCtrlEnter SendMethod = "ctrl_enter" // Ctrl/Cmd+Enter in the composer
)

var knownSend = map[SendMethod]bool{SendClick: true, SendEnter: true, SendCtrlEnter: true}

// StreamCapture says which network response carries the answer stream and
// which decoder (package stream) reads it.
type StreamCapture struct {
	Method string `json:"method,omitempty"`
	// PathPattern is a regular expression over the URL path (the origin is
	// always the site's own).
	PathPattern string `json:"pathPattern,omitempty"`
	Decoder     string `json:"decoder,omitempty"`
	// Optional marks a stream that may be invisible to page-level capture:
	// the DOM stays the primary source of the answer.
	Optional bool `json:"optional,omitempty"`
}

// Feature is something Ferry can do on a site.
type Feature string

// The features of the capability registry.
const (
	FeatureChat           Feature = "chat"
	FeatureModelSelection Feature = "model_selection"
	FeatureFileUpload     Feature = "file_upload"
	FeatureCodeArtifacts  Feature = "code_artifacts" // sandbox zips: ChatGPT only
	FeatureStreamCapture  Feature = "stream_capture"
)

var knownFeatures = map[Feature]bool{
	FeatureChat: true, FeatureModelSelection: true, FeatureFileUpload: true,
	FeatureCodeArtifacts: true, FeatureStreamCapture: true,
}

// DefaultModel is the alias for "whatever model the site has selected";
// every site has it, and using it selects nothing.
const DefaultModel = "default"

// Model is one model alias of a site.
type Model struct {
	Alias string `json:"alias"`
	// Labels are texts or test ids that identify the model's entry in the
	// picker (matched case-insensitively as substrings).
	Labels []string `json:"labels,omitempty"`
	// Proof lists substrings of the model name that the answer's model
	// proof (stream slug, DOM attribute) must contain for this alias.
	Proof []string `json:"proof,omitempty"`
	// URLParam is the model id for sites that select the model by URL.
	URLParam string `json:"urlParam,omitempty"`
	// Features, when set, limits the model to these of the site's features.
	Features []Feature `json:"features,omitempty"`
	// Effort, when set, makes the alias a tier of the site's efforts on
	// whatever model is selected (ChatGPT's "pro": the Pro tier), not a
	// model: choosing it chooses that effort.
	Effort string `json:"effort,omitempty"`
}

// Effort is one reasoning-effort tier a site's picker offers (ChatGPT's
// Instant, Medium, High, Extra High and Pro).
type Effort struct {
	// Name is the tier as Ferry's --effort names it ("extra-high").
	Name string `json:"name"`
	// Labels are the page's words for it ("Extra High"), matched whole and
	// case-insensitively: a user may name the tier in them too.
	Labels []string `json:"labels,omitempty"`
	// Level is its position on a slider picker, from 0.
	Level int `json:"level"`
	// Proof lists substrings of the answer's model slug that the tier
	// shows in; empty when the slug does not tell tiers apart.
	Proof []string `json:"proof,omitempty"`
}

// Tool is a tool the site's composer switches on for one prompt (ChatGPT's
// tools menu: Deep research, Create image, Web search).
type Tool struct {
	// Name is the tool as Ferry's --tool names it ("web-search").
	Name string `json:"name"`
	// Labels are the words of the tool's row in the menu ("Web search"),
	// matched whole and case-insensitively; the first is the one the
	// chosen tool's pill is removed by ("Remove Web search").
	Labels []string `json:"labels"`
	// Hint is the data-system-hint-type of the chosen tool's pill
	// ("search"); empty where the pill is known by its label alone.
	Hint string `json:"hint,omitempty"`
	// Request is what the send's request names the tool by (ChatGPT's
	// system_hints: "search"): the proof it went out with the prompt.
	Request string `json:"request,omitempty"`
}

// Site is everything Ferry knows about one chat site. Values returned by a
// Registry are copies: changing them changes nothing in the registry.
type Site struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Address is the origin plus path prefix Ferry may work under, such as
	// "https://chatgpt.com/". Only https addresses are allowed.
	Address string `json:"address"`
	// NewChat is the URL that opens a fresh chat (defaults to Address).
	NewChat string `json:"newChat,omitempty"`
	// TemporaryChat is the URL that opens a chat the site keeps no
	// history of (ChatGPT's temporary chat); "" when the site has none.
	TemporaryChat string `json:"temporaryChat,omitempty"`
	// Places says the site files chats in places of its own that Ferry
	// opens a new chat in (ChatGPT's projects, which it lists, and custom
	// GPTs) and archives a conversation once its answer is safe: the
	// site's adapter is a runs.Placer, runs.ProjectLister and runs.Archiver.
	Places bool `json:"places,omitempty"`
	// OldHosts are hosts the site answered on before and now redirects
	// from (Kimi's kimi.moonshot.cn): a tab or a saved conversation there
	// is the site's, and is continued at the same path on Address's host
	// (see Current). Ferry never drives a page on one.
	OldHosts []string `json:"oldHosts,omitempty"`
	// Account is the account, by its e-mail, to continue as when the site
	// asks which of several signed-in accounts to use (ChatGPT's "Welcome
	// back" page); empty: only a lone account is chosen.
	Account string `json:"account,omitempty"`
	// LoginHosts are hosts the site sends users to for logging in; a tab
	// there is logged out, not lost.
	LoginHosts []string `json:"loginHosts,omitempty"`
	// LoginPaths are paths under Address that show the login wall.
	LoginPaths []string `json:"loginPaths,omitempty"`
	// ConversationPath, when set, is the pattern (a Go regular
	// expression matched against the escaped path) of a conversation's
	// lasting address. A path that is neither the site's start page nor a
	// match is a conversation's transient address (ChatGPT shows a new
	// chat at /c/WEB:<uuid> before its /c/<id>): never recorded, continued
	// or taken for an id. Empty: every path but the start page is a
	// conversation's address.
	ConversationPath string            `json:"conversationPath,omitempty"`
	Selectors        map[Role][]string `json:"selectors"`
	// Optional are the roles the site's page may lack (for some accounts,
	// plans or layouts) while a plain ask still works, each with the
	// feature that needs it: the site check reports such a role missing
	// with what it blocks and keeps the site ok; a run that needs it
	// fails with a typed error naming it. Every role of a site is either
	// one a plain ask uses (AskRoles) or listed here.
	Optional map[Role]Feature `json:"optional,omitempty"`
	// Texts narrows a role to elements whose text contains one of the
	// strings, for controls told apart only by their label (AI Studio's
	// Run/Stop button).
	Texts map[Role][]string `json:"texts,omitempty"`
	// BusyTexts are answer texts that mean "still working" (Gemini's
	// "Searching the internet").
	BusyTexts []string `json:"busyTexts,omitempty"`
	// MessageIDAttrs are the attributes that carry a message's id on a
	// turn or inside it, first found wins (nil: data-message-id, then the
	// turn's data-turn-id).
	MessageIDAttrs []string `json:"messageIdAttrs,omitempty"`
	// Typing lists the typing strategies to try, in order.
	Typing []Typing `json:"typing"`
	// NoExtraInput forbids dispatching an input event after execCommand
	// (Lexical treats a second one as new text).
	NoExtraInput bool `json:"noExtraInput,omitempty"`
	// OneRunAtATime says the site answers one prompt at a time per
	// account: a run of the site waits (queued) while another goes on,
	// instead of opening a tab of its own.
	OneRunAtATime bool `json:"oneRunAtATime,omitempty"`
	// PageOnlyChats says the site keeps a chat only in the page that runs
	// it (AI Studio): the chat has no address while it answers, and an
	// answer whose page went away is lost with it, so a run that lost its
	// browser after the send cannot be collected.
	PageOnlyChats bool           `json:"pageOnlyChats,omitempty"`
	Send          SendMethod     `json:"send"`
	Stream        *StreamCapture `json:"stream,omitempty"`
	Features      []Feature      `json:"features"`
	Models        []Model        `json:"models,omitempty"`
	// Efforts are the reasoning-effort tiers the site's picker offers,
	// cheapest first; none: the site has no effort choice.
	Efforts []Effort `json:"efforts,omitempty"`
	// Tools are the tools the site's composer offers for a prompt; none:
	// Ferry chooses no tool there.
	Tools []Tool `json:"tools,omitempty"`
	// Uploads is how the site takes files (nil: it takes none, whatever
	// its features say).
	Uploads *Uploads `json:"uploads,omitempty"`
	// Layouts are the signs of the page layouts Ferry knows, by aspect
	// (ChatGPT's turn markup of 2026-09-29 and the older one): the site
	// check names the one it sees, so that a report tells at once whether
	// Ferry knows the page.
	Layouts []LayoutSign `json:"layouts,omitempty"`
	// Builtin is true for the sites that ship with Ferry.
	Builtin bool `json:"builtin"`
}

// LayoutSign is one known layout of an aspect of a site's page: the page
// shows it when Selector matches a visible element. Role, when set, is the
// role whose match shows that the page has the aspect at all (a turn, a
// finished bar): with it matched and no sign of the aspect, the page's
// layout is one Ferry does not know.
type LayoutSign struct {
	Aspect   string `json:"aspect"`
	Name     string `json:"name"`
	Selector string `json:"selector"`
	Role     Role   `json:"role,omitempty"`
}

// Selector returns the selectors of role in first-match-wins order (nil when
// the site has none).
func (s Site) Selector(role Role) []string { return append([]string(nil), s.Selectors[role]...) }

// Has reports whether the site offers feature at all (for any model).
func (s Site) Has(f Feature) bool {
	for _, x := range s.Features {
		if x == f {
			return true
		}
	}
	return false
}

// clone returns a deep copy, so that registries never share mutable state.
func (s Site) clone() Site {
	c := s
	c.LoginHosts = append([]string(nil), s.LoginHosts...)
	c.OldHosts = append([]string(nil), s.OldHosts...)
	c.LoginPaths = append([]string(nil), s.LoginPaths...)
	c.BusyTexts = append([]string(nil), s.BusyTexts...)
	c.MessageIDAttrs = append([]string(nil), s.MessageIDAttrs...)
	c.Layouts = append([]LayoutSign(nil), s.Layouts...)
	c.Typing = append([]Typing(nil), s.Typing...)
	c.Features = append([]Feature(nil), s.Features...)
	c.Selectors = cloneRoles(s.Selectors)
	c.Texts = cloneRoles(s.Texts)
	if s.Optional != nil {
		c.Optional = make(map[Role]Feature, len(s.Optional))
		for r, f := range s.Optional {
			c.Optional[r] = f
		}
	}
	if s.Stream != nil {
		st := *s.Stream
		c.Stream = &st
	}
	c.Uploads = s.Uploads.clone()
	c.Models = make([]Model, len(s.Models))
	for i, m := range s.Models {
		m.Labels = append([]string(nil), m.Labels...)
		m.Proof = append([]string(nil), m.Proof...)
		m.Features = append([]Feature(nil), m.Features...)
		c.Models[i] = m
	}
	c.Efforts = nil
	for _, e := range s.Efforts {
		e.Labels = append([]string(nil), e.Labels...)
		e.Proof = append([]string(nil), e.Proof...)
		c.Efforts = append(c.Efforts, e)
	}
	c.Tools = nil
	for _, t := range s.Tools {
		t.Labels = append([]string(nil), t.Labels...)
		c.Tools = append(c.Tools, t)
	}
	return c
}

func cloneRoles(m map[Role][]string) map[Role][]string {
	if m == nil {
		return nil
	}
	out := make(map[Role][]string, len(m))
	for k, v := range m {
		out[k] = append([]string(nil), v...)
	}
	return out
}
