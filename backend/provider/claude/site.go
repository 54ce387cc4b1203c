package claude

import "github.com/ferrydesk/ferry/backend/site"

// Site returns the registry entry of Claude (claude.ai). Property writes to the editor silently fail: type with
// execCommand. The send button hydrates late on background tabs.
func Site() site.Site {
	return site.Site{
		ID:         "claude",
		Name:       "Claude",
		Address:    "https://claude.ai/",
		NewChat:    "https://claude.ai/new",
		LoginPaths: []string{"/login"},
		Selectors: map[site.Role][]string{
			site.RoleComposer: {
				`[contenteditable="true"][aria-label="Write your prompt to Claude"]`,
				`[data-testid="chat-input"]`,
				`div.ProseMirror[contenteditable="true"]`,
			},
			site.RoleSend:          {`button[aria-label="Send message"]`, `[data-testid="chat-input-send"]`},
			site.RoleStop:          {`button[aria-label="Stop response"]`},
			site.RoleBusy:          {`div[data-is-streaming="true"]`},
			site.RoleUserTurn:      {`[data-testid="user-message"]`},
			site.RoleAssistantTurn: {`div[data-is-streaming]`},
			// The thinking summary renders inside font-claude-response but
			// outside the answer's .standard-markdown.
			site.RoleAnswerBody: {`div[class*="font-claude-response"] .standard-markdown`, `div[class*="font-claude-response"]`},
			site.RoleCodeBlock:  {`pre code`},
			// action-bar-copy sits under both roles; retry only under
			// answers. The newest layout (2026-08) has neither test id: its
			// copy control is the first button of the message's bar.
			site.RoleFinished: {`[data-testid="action-bar-retry"]`, `[data-testid="action-bar-copy"]`,
				`div[data-test-render-count] > div > div:nth-child(2) button:first-child`},
			site.RoleModelPicker: {`[data-testid="model-selector-dropdown"]`},
			site.RoleModelItem:   {`[role="menuitemradio"]`},
			site.RoleFileInput:   {`input[type="file"]#chat-input-file-upload-onpage`, `input[type="file"]`},
		},
		Layouts: []site.LayoutSign{
			{Aspect: "finished bar", Name: "without test ids (2026-08)", Selector: `div[data-test-render-count] > div > div:nth-child(2) button:first-child`, Role: site.RoleFinished},
			{Aspect: "finished bar", Name: "action-bar test ids (before 2026-08)", Selector: `[data-testid="action-bar-copy"]`, Role: site.RoleFinished},
		},
		Typing: []site.Typing{site.TypingExecCommand},
		Send:   site.SendClick,
		Stream: &site.StreamCapture{
			Method:      "POST",
			PathPattern: `^/api/organizations/[^/]+/chat_conversations/[^/]+/completion$`,
			Decoder:     DecoderName,
		},
		// Only choosing a model or attaching files needs these: a page without them still takes a plain ask.
		Optional: map[site.Role]site.Feature{
			site.RoleModelPicker: site.FeatureModelSelection,
			site.RoleModelItem:   site.FeatureModelSelection,
			site.RoleFileInput:   site.FeatureFileUpload,
		},
		Features: []site.Feature{site.FeatureChat, site.FeatureModelSelection, site.FeatureFileUpload, site.FeatureStreamCapture},
		Models: []site.Model{
			{Alias: "opus", Labels: []string{"Opus"}, Proof: []string{"opus"}},
			{Alias: "sonnet", Labels: []string{"Sonnet"}, Proof: []string{"sonnet"}},
			{Alias: "haiku", Labels: []string{"Haiku"}, Proof: []string{"haiku"}},
		},
		// The reference names the file input only: a file is confirmed by
		// any element of the page whose aria-label or title is its name,
		// ready when it shows no progress sign and send is enabled. Limits:
		// the help centre's 20 files and 30 MB per file.
		Uploads: &site.Uploads{
			Method:         site.UploadFileInput,
			MaxFiles:       20,
			MaxFileBytes:   30 << 20,
			MaxPromptBytes: 256 << 10,
			Tile:           []string{`[data-testid="file-thumbnail"]`, `[aria-label]`, `[title]`},
			Pending:        []string{`[role="progressbar"]`, `[class*="animate-spin"]`, `[class*="spinner" i]`},
			Refused:        []string{`[role="alert"]`, `[data-testid*="toast" i]`},
		},
	}
}
