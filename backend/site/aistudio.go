package site

// Google AI Studio (aistudio.google.com). The model is chosen by URL
// (?model=<id>), and Run and Stop are one button told apart by its label.
func init() {
	Register(Site{
		ID:         "aistudio",
		Name:       "Google AI Studio",
		Address:    "https://aistudio.google.com/",
		NewChat:    "https://aistudio.google.com/prompts/new_chat",
		LoginHosts: []string{"accounts.google.com"},
		Selectors: map[Role][]string{
			RoleComposer: {`textarea[formcontrolname="promptText"]`, `footer ms-prompt-box textarea`},
			// Every turn has its own run button: scope to the footer.
			RoleSend:          {`footer ms-run-button button:not([aria-disabled="true"])`},
			RoleStop:          {`footer ms-run-button button`},
			RoleUserTurn:      {`ms-chat-turn[data-turn-role="User"]`},
			RoleAssistantTurn: {`ms-chat-turn:not([data-turn-role="User"])`},
			RoleAnswerBody:    {`ms-text-chunk`, `.cmark-node`},
			RoleThoughts:      {`ms-thought-chunk`},
			RoleFinished:      {`ms-chat-turn .turn-footer button[iconname="thumb_up"]`},
			RoleModelPicker:   {`button.model-selector-card`},
			RoleReady:         {`ms-zero-state`, `button.model-selector-card`, `ms-chat-turn`}, // a new chat's zero state, or an open chat's turns
			RoleCodeBlock:     {`ms-code-block`, `ms-chat-turn pre`},
			RoleLoggedIn:      {`a[aria-label*="Google Account" i]`},
			RoleLoggedOut:     {`a[href*="accounts.google.com/ServiceLogin"]`},
			RoleTokenCount:    {`span.v3-token-count-value`},
		},
		Texts: map[Role][]string{
			RoleSend: {"Run"},
			RoleStop: {"Stop"},
		},
		Typing:   []Typing{TypingNativeSetter, TypingInputEvent},
		Send:     SendClick,
		Features: []Feature{FeatureChat, FeatureModelSelection},
		Models: []Model{
			{Alias: "pro", URLParam: "gemini-pro-latest", Proof: []string{"pro"}},
			{Alias: "flash", URLParam: "gemini-flash-latest", Proof: []string{"flash"}},
			{Alias: "flash-lite", URLParam: "gemini-flash-lite-latest", Proof: []string{"flash-lite"}},
		},
	})
}
