package chatgpt

import "github.com/ferrydesk/ferry/backend/site"

// DurablePath is the pattern of a ChatGPT conversation's lasting address
// (Site.ConversationPath): /c/ and an id of letters, digits and dashes,
// then the end or a slash.
const DurablePath = `^(?:/g/[^/]+)?/c/([A-Za-z0-9-]+)(?:/|$)`

// Site returns the registry entry of ChatGPT (chatgpt.com), per the providers reference (§1). The
// hidden textarea[name="prompt-textarea"] is deliberately never a composer.
func Site() site.Site {
	return site.Site{
		ID:      "chatgpt",
		Name:    "ChatGPT",
		Address: "https://chatgpt.com/",
		NewChat: "https://chatgpt.com/",
		// providers.md "Tools": a temporary chat, which leaves no history.
		TemporaryChat: "https://chatgpt.com/?temporary-chat=true",
		// providers.md "Projects": projects, custom GPTs, the archive.
		Places:     true,
		LoginHosts: []string{"auth.openai.com"},
		LoginPaths: []string{"/auth/login"},
		// A new chat first shows /c/WEB:<uuid> or /c/local-chatgpt%3A<id>;
		// only /c/<id> (also under a project or GPT, /g/<slug>/c/<id>)
		// lasts (the reference, "What changed": transient URLs).
		ConversationPath: DurablePath,
		Selectors: map[site.Role][]string{
			site.RoleComposer: {
				`div#prompt-textarea[contenteditable="true"]`,
				`textarea[data-id="prompt-textarea"]`,
				`textarea[placeholder*="Send a message"]`,
				`textarea[aria-label="Message ChatGPT"]`,
				`.ProseMirror[contenteditable="true"]`,
				`[contenteditable="true"][role="textbox"]`,
			},
			site.RoleSend: {
				`button[data-testid="send-button"]`,
				`button[aria-label="Send prompt"]`,
				`#composer-submit-button`,
				`button[aria-label*="Send"]`,
				`form button[type="submit"]`,
			},
			site.RoleStop: {
				`[data-testid="stop-button"]`,
				`[data-testid="composer-stop-button"]`,
				// Scoped to the form: an unscoped "stop" also matches read-aloud.
				`form button[aria-label*="stop" i]:not([aria-label*="dictat" i]):not([aria-label*="voice" i]):not([aria-label*="read" i])`,
			},
			site.RoleBusy: {
				`[data-is-streaming="true"]`,
				`[aria-busy="true"][data-message-author-role="assistant"]`,
				`span.loading-shimmer`,
			},
			// The turn markup of 2026-09-29 first (div[data-turn-key],
			// [data-conversation-role], the answer in
			// [data-markdown-text-style="assistant-message"]), then the older.
			site.RoleUserTurn: {
				`[data-content-search-unit-key] [data-conversation-role="user"]`,
				`article[data-testid^="conversation-turn-"][data-turn="user"]`,
				`[data-message-author-role="user"]`,
			},
			site.RoleAssistantTurn: {
				`[data-content-search-unit-key] [data-conversation-role="assistant"]`,
				`[data-message-author-role="assistant"][data-message-id]:not([data-message-id^="request-placeholder-"])`,
				`article[data-testid^="conversation-turn-"][data-turn="assistant"]`,
			},
			site.RoleAnswerBody: {`[data-markdown-text-style="assistant-message"]`, `.markdown`},
			site.RoleCodeBlock:  {`pre code[class*="language-"]`, `pre code`},
			site.RoleFinished: {
				`button[data-testid="copy-turn-action-button"]`,
				`button[data-testid="good-response-turn-action-button"]`,
				`button[data-testid="bad-response-turn-action-button"]`,
				`button[aria-label="Share"]`,
			},
			// The picker's trigger, newest anchor first; the menu behind it
			// is told apart by what it shows (internal/picker).
			site.RoleModelPicker: {
				`button[data-codex-intelligence-trigger="true"][aria-haspopup="menu"]`,
				`button[aria-label="Select ChatGPT model"][aria-haspopup="menu"]`,
				`button.__composer-pill[aria-haspopup="menu"]`,
				`[data-testid="model-switcher-dropdown-button"]`,
			},
			site.RoleModelItem: {
				`[role="menu"]:not([inert]) [role="menuitemradio"]`,
				`[role="menu"]:not([inert]) [role="menuitem"]`,
			},
			site.RoleLoggedIn: {
				`[data-testid="accounts-profile-button"]`,
				`[data-testid^="history-item-"]`,
				`a[data-testid="create-new-chat-button"]`,
			},
			site.RoleLoggedOut: {
				`a[href*="/auth/login"]`,
				`textarea#mobile-composer-prompt`,
			},
			site.RoleFileInput: {`input#upload-files`, `input[type="file"][multiple]`},
			site.RoleErrorText: {
				`[data-conversation-role="assistant"] .text-token-text-error`,
				`[data-message-author-role="assistant"] .text-token-text-error`,
				`.text-token-text-error`,
			},
			site.RoleNewChat: {`a[data-testid="create-new-chat-button"]`},
			site.RoleReady:   {`form[data-type="unified-composer"]`},
		},
		MessageIDAttrs: []string{"data-chatgpt-selection-message-id", "data-message-id"},
		// The layouts the reference dates (ChatGPT, "What changed").
		Layouts: []site.LayoutSign{
			{Aspect: "turns", Name: "2026-09-29 markup", Selector: `[data-content-search-unit-key] [data-conversation-role]`, Role: site.RoleAssistantTurn},
			{Aspect: "turns", Name: "article markup (before 2026-09-29)", Selector: `article[data-testid^="conversation-turn-"]`, Role: site.RoleAssistantTurn},
			{Aspect: "chat kind", Name: "Chat/Work toggle (2026-07)", Selector: `[role="radiogroup"] button[role="radio"]`},
			{Aspect: "picker trigger", Name: "Intelligence trigger (2026-09-28)", Selector: `button[data-codex-intelligence-trigger="true"]`, Role: site.RoleModelPicker},
			{Aspect: "picker trigger", Name: "composer pill (2026-07 to 09)", Selector: `button.__composer-pill[aria-haspopup="menu"], button[aria-label="Select ChatGPT model"][aria-haspopup="menu"]`, Role: site.RoleModelPicker},
			{Aspect: "picker trigger", Name: "model switcher (before 2026-07)", Selector: `[data-testid="model-switcher-dropdown-button"]`, Role: site.RoleModelPicker},
		},
		Typing: []site.Typing{site.TypingInsertText, site.TypingExecCommand},
		Send:   site.SendClick,
		Stream: &site.StreamCapture{
			Method:      "POST",
			PathPattern: `^/backend-(api|anon)/f/conversation$`,
			Decoder:     DecoderName,
		},
		// Only choosing a model or attaching files needs these: a page without them still takes a plain ask.
		Optional: map[site.Role]site.Feature{
			site.RoleModelPicker: site.FeatureModelSelection,
			site.RoleModelItem:   site.FeatureModelSelection,
			site.RoleFileInput:   site.FeatureFileUpload,
		},
		Features: []site.Feature{site.FeatureChat, site.FeatureModelSelection, site.FeatureFileUpload, site.FeatureCodeArtifacts, site.FeatureStreamCapture},
		// The picker's models and, as aliases of old, tiers ("pro": the Pro
		// tier of the selected model).
		Models: []site.Model{
			{Alias: "gpt-5.6", Labels: []string{"GPT-5.6 Sol", "GPT-5.6"}, Proof: []string{"gpt-5-6"}},
			{Alias: "gpt-5.5", Labels: []string{"GPT-5.5"}, Proof: []string{"gpt-5-5"}},
			{Alias: "gpt-5.4", Labels: []string{"GPT-5.4"}, Proof: []string{"gpt-5-4"}},
			{Alias: "gpt-5.3", Labels: []string{"GPT-5.3"}, Proof: []string{"gpt-5-3"}},
			{Alias: "o3", Labels: []string{"o3"}, Proof: []string{"o3"}},
			{Alias: "instant", Labels: []string{"Instant"}, Proof: []string{"instant"}, Effort: "instant"},
			{Alias: "thinking", Labels: []string{"High"}, Proof: []string{"thinking"}, Effort: "high"},
			{Alias: "pro", Labels: []string{"Pro"}, Proof: []string{"pro"}, Effort: "pro"},
		},
		// The tiers at their slider positions; the slug names the family.
		Efforts: []site.Effort{
			{Name: "instant", Labels: []string{"Instant"}, Level: 0, Proof: []string{"instant"}},
			{Name: "medium", Labels: []string{"Medium"}, Level: 1, Proof: []string{"thinking"}},
			{Name: "high", Labels: []string{"High"}, Level: 2, Proof: []string{"thinking"}},
			{Name: "extra-high", Labels: []string{"Extra High"}, Level: 3, Proof: []string{"thinking"}},
			{Name: "pro", Labels: []string{"Pro"}, Level: 4, Proof: []string{"pro"}},
		},
		// The composer's tools menu (the reference's "Tools"): the rows'
		// words, the chosen pill's hint type, the request's system_hints.
		Tools: []site.Tool{
			{Name: "deep-research", Labels: []string{"Deep research"}, Request: "plugin:connector_openai_deep_research"},
			{Name: "image", Labels: []string{"Create image"}, Hint: "picture_v2", Request: "picture_v2"},
			{Name: "web-search", Labels: []string{"Web search"}, Hint: "search", Request: "search"},
		},
		// The reference (§1 upload): a tile per file whose aria-label is
		// the full name; while a file uploads the tile shows a spinner and
		// the send button stays disabled, so readiness is the enabled send
		// control. Limits: the help centre's 10 files per message and
		// 512 MB per file.
		Uploads: &site.Uploads{
			Method:         site.UploadFileInput,
			MaxFiles:       10,
			MaxFileBytes:   512 << 20,
			MaxPromptBytes: 256 << 10,
			Tile:           []string{`div[role="group"][aria-label]`},
			NameAttr:       "aria-label",
			Pending:        []string{`[role="progressbar"]`, `svg[class*="animate-spin"]`, `[class*="spinner" i]`},
			Refused:        []string{`[role="alert"]`, `[data-testid*="toast" i]`},
			RenamesRepeats: true,
		},
	}
}
