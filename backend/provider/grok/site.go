package grok

import "github.com/ferrydesk/ferry/backend/site"

// Site returns the registry entry of Grok (grok.com). Enter inserts a newline, so sending is a click. The login
// state is probed over GET /rest/user-settings by the adapter: the page has
// no documented logged-in marker.
func Site() site.Site {
	return site.Site{
		ID:      "grok",
		Name:    "Grok",
		Address: "https://grok.com/",
		NewChat: "https://grok.com/",
		Selectors: map[site.Role][]string{
			site.RoleComposer: {
				`div.tiptap.ProseMirror[contenteditable="true"]`,
				`[contenteditable="true"][aria-label="Ask Grok anything"]`,
			},
			// A second selector from public facts: one renamed test id is
			// not an outage.
			site.RoleSend: {`[data-testid="chat-submit"]`, `button[type="submit"][aria-label="Submit"]`},
			site.RoleStop: {`[data-testid="chat-stop"]`, `button[aria-label*="Stop" i]`},
			// Both roles use .message-bubble; the newest is the last. The
			// user's bubbles hold no response markdown (a reattach looks
			// for the prompt's turn among them).
			site.RoleUserTurn:      {`.message-bubble:not(:has(.response-content-markdown))`},
			site.RoleAssistantTurn: {`.message-bubble`},
			site.RoleAnswerBody:    {`.response-content-markdown`},
			site.RoleCodeBlock:     {`pre code`},
			site.RoleFinished:      {`div.action-buttons`},
			site.RoleModelPicker:   {`button[aria-label="Model select"]`},
			site.RoleModelItem:     {`[role="menuitem"]`},
		},
		Typing: []site.Typing{site.TypingInsertText, site.TypingExecCommand},
		Send:   site.SendClick,
		Stream: &site.StreamCapture{
			Method:      "POST",
			PathPattern: `^/rest/app-chat/conversations/(new|[^/]+/responses)$`,
			Decoder:     DecoderName,
		},
		// Only choosing a model needs these: a page without them still takes a plain ask.
		Optional: map[site.Role]site.Feature{
			site.RoleModelPicker: site.FeatureModelSelection,
			site.RoleModelItem:   site.FeatureModelSelection,
		},
		Features: []site.Feature{site.FeatureChat, site.FeatureModelSelection, site.FeatureStreamCapture},
		Models: []site.Model{
			{Alias: "auto", Labels: []string{"Auto"}},
			{Alias: "fast", Labels: []string{"Fast"}},
			{Alias: "expert", Labels: []string{"Expert"}},
			{Alias: "heavy", Labels: []string{"Heavy"}},
		},
	}
}
