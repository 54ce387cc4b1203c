package site

import "github.com/ferrydesk/ferry/backend/stream"

// Claude (claude.ai). Property writes to the editor silently fail: type with
// execCommand. The send button hydrates late on background tabs.
func init() {
	Register(Site{
		ID:         "claude",
		Name:       "Claude",
		Address:    "https://claude.ai/",
		NewChat:    "https://claude.ai/new",
		LoginPaths: []string{"/login"},
		Selectors: map[Role][]string{
			RoleComposer: {
				`[contenteditable="true"][aria-label="Write your prompt to Claude"]`,
				`[data-testid="chat-input"]`,
				`div.ProseMirror[contenteditable="true"]`,
			},
			RoleSend:          {`button[aria-label="Send message"]`, `[data-testid="chat-input-send"]`},
			RoleStop:          {`button[aria-label="Stop response"]`},
			RoleBusy:          {`div[data-is-streaming="true"]`},
			RoleUserTurn:      {`[data-testid="user-message"]`},
			RoleAssistantTurn: {`div[data-is-streaming]`},
			RoleAnswerBody:    {`div[class*="font-claude-response"]`},
			RoleCodeBlock:     {`pre code`},
			// action-bar-copy sits under both roles; retry only under answers.
			RoleFinished:    {`[data-testid="action-bar-retry"]`, `[data-testid="action-bar-copy"]`},
			RoleModelPicker: {`[data-testid="model-selector-dropdown"]`},
			RoleModelItem:   {`[role="menuitemradio"]`},
			RoleFileInput:   {`input[type="file"]#chat-input-file-upload-onpage`, `input[type="file"]`},
		},
		Typing: []Typing{TypingExecCommand},
		Send:   SendClick,
		Stream: &StreamCapture{
			Method:      "POST",
			PathPattern: `^/api/organizations/[^/]+/chat_conversations/[^/]+/completion$`,
			Decoder:     stream.Claude,
		},
		Features: []Feature{FeatureChat, FeatureModelSelection, FeatureFileUpload, FeatureStreamCapture},
		Models: []Model{
			{Alias: "opus", Labels: []string{"Opus"}, Proof: []string{"opus"}},
			{Alias: "sonnet", Labels: []string{"Sonnet"}, Proof: []string{"sonnet"}},
			{Alias: "haiku", Labels: []string{"Haiku"}, Proof: []string{"haiku"}},
		},
	})
}
