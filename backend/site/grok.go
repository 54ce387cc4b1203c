package site

import "github.com/ferrydesk/ferry/backend/stream"

// Grok (grok.com). Enter inserts a newline, so sending is a click. The login
// state is probed over GET /rest/user-settings by the adapter: the page has
// no documented logged-in marker.
func init() {
	Register(Site{
		ID:      "grok",
		Name:    "Grok",
		Address: "https://grok.com/",
		NewChat: "https://grok.com/",
		Selectors: map[Role][]string{
			RoleComposer: {
				`div.tiptap.ProseMirror[contenteditable="true"]`,
				`[contenteditable="true"][aria-label="Ask Grok anything"]`,
			},
			RoleSend: {`[data-testid="chat-submit"]`},
			RoleStop: {`[data-testid="chat-stop"]`, `button[aria-label*="Stop" i]`},
			// Both roles use .message-bubble; the newest is the last.
			RoleAssistantTurn: {`.message-bubble`},
			RoleAnswerBody:    {`.response-content-markdown`},
			RoleCodeBlock:     {`pre code`},
			RoleFinished:      {`div.action-buttons`},
			RoleModelPicker:   {`button[aria-label="Model select"]`},
			RoleModelItem:     {`[role="menuitem"]`},
		},
		Typing: []Typing{TypingInsertText, TypingExecCommand},
		Send:   SendClick,
		Stream: &StreamCapture{
			Method:      "POST",
			PathPattern: `^/rest/app-chat/conversations/(new|[^/]+/responses)$`,
			Decoder:     stream.Grok,
		},
		Features: []Feature{FeatureChat, FeatureModelSelection, FeatureStreamCapture},
		Models: []Model{
			{Alias: "auto", Labels: []string{"Auto"}},
			{Alias: "fast", Labels: []string{"Fast"}},
			{Alias: "expert", Labels: []string{"Expert"}},
			{Alias: "heavy", Labels: []string{"Heavy"}},
		},
	})
}
