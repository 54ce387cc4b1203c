package aistudio

import "github.com/ferrydesk/ferry/backend/site"

// Site returns the registry entry of Google AI Studio (aistudio.google.com). The model is chosen by URL
// (?model=<id>), and Run and Stop are one button told apart by its label.
func Site() site.Site {
	return site.Site{
		ID:         "aistudio",
		Name:       "Google AI Studio",
		Address:    "https://aistudio.google.com/",
		NewChat:    "https://aistudio.google.com/prompts/new_chat",
		LoginHosts: []string{"accounts.google.com"},
		Selectors: map[site.Role][]string{
			site.RoleComposer: {`textarea[formcontrolname="promptText"]`, `footer ms-prompt-box textarea`},
			// Every turn has its own run button: scope to the footer.
			site.RoleSend:          {`footer ms-run-button button:not([aria-disabled="true"])`},
			site.RoleStop:          {`footer ms-run-button button`},
			site.RoleUserTurn:      {`ms-chat-turn[data-turn-role="User"]`},
			site.RoleAssistantTurn: {`ms-chat-turn:not([data-turn-role="User"])`},
			site.RoleAnswerBody:    {`ms-text-chunk`, `.cmark-node`},
			site.RoleThoughts:      {`ms-thought-chunk`},
			site.RoleFinished:      {`ms-chat-turn .turn-footer button[iconname="thumb_up"]`},
			site.RoleModelPicker:   {`button.model-selector-card`},
			site.RoleReady:         {`ms-zero-state`, `button.model-selector-card`, `ms-chat-turn`}, // a new chat's zero state, or an open chat's turns
			site.RoleCodeBlock:     {`ms-code-block`, `ms-chat-turn pre`},
			site.RoleLoggedIn:      {`a[aria-label*="Google Account" i]`},
			site.RoleLoggedOut:     {`a[href*="accounts.google.com/ServiceLogin"]`},
			site.RoleTokenCount:    {`span.v3-token-count-value`},
		},
		Texts: map[site.Role][]string{
			site.RoleSend: {"Run"},
			site.RoleStop: {"Stop"},
		},
		Typing: []site.Typing{site.TypingNativeSetter, site.TypingInputEvent},
		// The page runs the chat: nothing finishes an answer whose page
		// went away, and a new chat has no address of its own meanwhile.
		PageOnlyChats: true,
		Send:          site.SendClick,
		// Only choosing a model needs these: a page without them still takes a plain ask.
		Optional: map[site.Role]site.Feature{
			site.RoleModelPicker: site.FeatureModelSelection,
		},
		Features: []site.Feature{site.FeatureChat, site.FeatureModelSelection},
		Models: []site.Model{
			{Alias: "pro", URLParam: "gemini-pro-latest", Proof: []string{"pro"}},
			{Alias: "flash", URLParam: "gemini-flash-latest", Proof: []string{"flash"}},
			{Alias: "flash-lite", URLParam: "gemini-flash-lite-latest", Proof: []string{"flash-lite"}},
		},
	}
}
