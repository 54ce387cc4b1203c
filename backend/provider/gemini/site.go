package gemini

import "github.com/ferrydesk/ferry/backend/site"

// Site returns the registry entry of Gemini (gemini.google.com). The DOM is the primary source; the
// StreamGenerate response may be invisible to page-level capture. Files can
// only be attached by a trusted drag onto the input area (no file input).
func Site() site.Site {
	return site.Site{
		ID:         "gemini",
		Name:       "Gemini",
		Address:    "https://gemini.google.com/",
		NewChat:    "https://gemini.google.com/app",
		LoginHosts: []string{"accounts.google.com"},
		Selectors: map[site.Role][]string{
			site.RoleComposer:      {`rich-textarea .ql-editor[contenteditable="true"]`, `[role="textbox"][aria-label*="prompt" i]`},
			site.RoleSend:          {`button.send-button`, `button[aria-label="Send message"]`},
			site.RoleStop:          {`button[aria-label="Stop response"]`, `mat-icon[fonticon="stop"]`},
			site.RoleBusy:          {`message-content .markdown[aria-busy="true"]`},
			site.RoleUserTurn:      {`user-query`},
			site.RoleAssistantTurn: {`model-response`},
			site.RoleAnswerBody:    {`message-content .markdown`, `message-content`},
			site.RoleCodeBlock:     {`code-block pre > code.code-container`, `code-block pre`},
			site.RoleFinished: {
				`.response-footer.complete`,
				`message-actions button[aria-label*="Copy" i]`,
			},
			site.RoleModelPicker: {`bard-mode-switcher button`},
			site.RoleModelItem:   {`gem-menu [role="menuitem"]`, `[role="menuitem"]`},
			site.RoleLoggedIn:    {`a[aria-label*="Google Account" i]`},
			site.RoleLoggedOut:   {`a[href*="accounts.google.com/ServiceLogin"]`},
			site.RoleThoughts:    {`model-thoughts`},
		},
		BusyTexts: []string{"Searching the internet", "Analyzing", "Thinking", "generating your response"},
		Typing:    []site.Typing{site.TypingExecCommand, site.TypingInsertText},
		Send:      site.SendClick,
		Stream: &site.StreamCapture{
			Method:      "POST",
			PathPattern: `^/_/BardChatUi/data/assistant\.lamda\.BardFrontendService/StreamGenerate$`,
			Decoder:     DecoderName,
			Optional:    true,
		},
		// Only choosing a model needs these: a page without them still takes a plain ask.
		Optional: map[site.Role]site.Feature{
			site.RoleModelPicker: site.FeatureModelSelection,
			site.RoleModelItem:   site.FeatureModelSelection,
		},
		Features: []site.Feature{site.FeatureChat, site.FeatureModelSelection, site.FeatureFileUpload, site.FeatureStreamCapture},
		Models: []site.Model{
			{Alias: "flash-lite", Labels: []string{"Flash-Lite"}, Proof: []string{"flash-lite"}},
			{Alias: "flash", Labels: []string{"Flash"}, Proof: []string{"flash"}},
			{Alias: "pro", Labels: []string{"Pro"}, Proof: []string{"pro"}},
			{Alias: "thinking", Labels: []string{"Extended thinking"}},
		},
		// The reference (§ Gemini upload): no input[type=file]; a trusted
		// CDP drag onto input-area-v2 or rich-textarea. It names no tile: a
		// file is confirmed by an element of the input area whose
		// aria-label or title is its name, ready with no progress sign (the
		// send button stays enabled throughout). Limits: the help centre's
		// 10 files and 100 MB per file.
		Uploads: &site.Uploads{
			Method:         site.UploadDrop,
			MaxFiles:       10,
			MaxFileBytes:   100 << 20,
			MaxPromptBytes: 256 << 10,
			DropTarget:     []string{`input-area-v2`, `rich-textarea`},
			Tile:           []string{`[data-test-id="file-preview"]`, `input-area-v2 [aria-label]`, `input-area-v2 [title]`},
			Pending:        []string{`[role="progressbar"]`, `mat-progress-spinner`, `[class*="animate-spin"]`, `[class*="spinner" i]`},
			Refused:        []string{`[role="alert"]`, `simple-snack-bar`, `mat-snack-bar-container`},
		},
	}
}
