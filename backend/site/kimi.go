package site

import "github.com/ferrydesk/ferry/backend/stream"

// Kimi (www.kimi.com). Lexical editor: execCommand only, and no second input
// event. Send and stop share one div, told apart by class.
func init() {
	Register(Site{
		ID:      "kimi",
		Name:    "Kimi",
		Address: "https://www.kimi.com/",
		NewChat: "https://www.kimi.com/",
		Selectors: map[Role][]string{
			RoleComposer: {
				`.chat-input-editor[contenteditable="true"][data-lexical-editor="true"]`,
				`[data-lexical-editor="true"][contenteditable="true"]`,
			},
			RoleSend:          {`.send-button-container:not(.stop):not(.loading):not(.disabled)`},
			RoleStop:          {`.send-button-container.stop`},
			RoleBusy:          {`.send-button-container.loading`},
			RoleAssistantTurn: {`.chat-content-item-assistant`},
			RoleAnswerBody:    {`.markdown`},
			RoleCodeBlock:     {`pre code`},
			RoleFinished:      {`.segment-assistant-actions`},
			RoleReady:         {`.current-model`},
			RoleLoggedIn:      {`.user-info`, `[class*="user-avatar"]`},
			RoleLoggedOut:     {`.login-button`},
		},
		Typing:       []Typing{TypingExecCommand},
		NoExtraInput: true,
		Send:         SendClick,
		Stream: &StreamCapture{
			Method:      "POST",
			PathPattern: `^/apiv2/kimi\.gateway\.chat\.v1\.ChatService/Chat$`,
			Decoder:     stream.Kimi,
		},
		Features: []Feature{FeatureChat, FeatureStreamCapture},
	})
}
