package site

import "github.com/ferrydesk/ferry/backend/stream"

// Gemini (gemini.google.com). The DOM is the primary source; the
// StreamGenerate response may be invisible to page-level capture. Files can
// only be attached by a drag onto the editor, so file upload is not offered.
func init() {
	Register(Site{
		ID:         "gemini",
		Name:       "Gemini",
		Address:    "https://gemini.google.com/",
		NewChat:    "https://gemini.google.com/app",
		LoginHosts: []string{"accounts.google.com"},
		Selectors: map[Role][]string{
			RoleComposer:      {`rich-textarea .ql-editor[contenteditable="true"]`, `[role="textbox"][aria-label*="prompt" i]`},
			RoleSend:          {`button.send-button`, `button[aria-label="Send message"]`},
			RoleStop:          {`button[aria-label="Stop response"]`, `mat-icon[fonticon="stop"]`},
			RoleBusy:          {`message-content .markdown[aria-busy="true"]`},
			RoleUserTurn:      {`user-query`},
			RoleAssistantTurn: {`model-response`},
			RoleAnswerBody:    {`message-content .markdown`, `message-content`},
			RoleCodeBlock:     {`code-block pre > code.code-container`, `code-block pre`},
			RoleFinished: {
				`.response-footer.complete`,
				`message-actions button[aria-label*="Copy" i]`,
			},
			RoleModelPicker: {`bard-mode-switcher button`},
			RoleModelItem:   {`gem-menu [role="menuitem"]`, `[role="menuitem"]`},
			RoleLoggedIn:    {`a[aria-label*="Google Account" i]`},
			RoleLoggedOut:   {`a[href*="accounts.google.com/ServiceLogin"]`},
			RoleThoughts:    {`model-thoughts`},
		},
		BusyTexts: []string{"Searching the internet", "Analyzing", "Thinking", "generating your response"},
		Typing:    []Typing{TypingExecCommand, TypingInsertText},
		Send:      SendClick,
		Stream: &StreamCapture{
			Method:      "POST",
			PathPattern: `^/_/BardChatUi/data/assistant\.lamda\.BardFrontendService/StreamGenerate$`,
			Decoder:     stream.Gemini,
			Optional:    true,
		},
		Features: []Feature{FeatureChat, FeatureModelSelection, FeatureStreamCapture},
		Models: []Model{
			{Alias: "flash-lite", Labels: []string{"Flash-Lite"}, Proof: []string{"flash-lite"}},
			{Alias: "flash", Labels: []string{"Flash"}, Proof: []string{"flash"}},
			{Alias: "pro", Labels: []string{"Pro"}, Proof: []string{"pro"}},
			{Alias: "thinking", Labels: []string{"Extended thinking"}},
		},
	})
}
