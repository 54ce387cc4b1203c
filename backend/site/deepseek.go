package site

import "github.com/ferrydesk/ferry/backend/stream"

// DeepSeek (chat.deepseek.com). Send and stop are the same circle button;
// while generating it shows the .ds-loading spinner, which is therefore
// both the stop and the busy marker.
func init() {
	Register(Site{
		ID:         "deepseek",
		Name:       "DeepSeek",
		Address:    "https://chat.deepseek.com/",
		NewChat:    "https://chat.deepseek.com/",
		LoginPaths: []string{"/sign_in"},
		Selectors: map[Role][]string{
			RoleComposer:      {`textarea[placeholder='Message DeepSeek']`, `#chat-input`},
			RoleSend:          {`[role='button'].ds-button--primary.ds-button--circle:not(.ds-button--disabled):not([aria-disabled='true'])`},
			RoleStop:          {`[role='button'].ds-button--primary.ds-button--circle .ds-loading`, `.ds-loading`},
			RoleBusy:          {`.ds-loading`},
			RoleAssistantTurn: {`[data-virtual-list-item-key]:has(.ds-markdown)`, `.ds-assistant-message-main-content`},
			RoleAnswerBody:    {`.ds-assistant-message-main-content .ds-markdown`, `.ds-markdown`},
			RoleCodeBlock:     {`.md-code-block pre`},
			RoleFinished:      {`[role='button'][aria-label='Read aloud']`},
			// The model "picker" is a radio group: each radio is an item.
			RoleModelPicker: {`div[data-model-type][aria-checked]`},
			RoleModelItem:   {`div[data-model-type]`},
		},
		Typing: []Typing{TypingNativeSetter, TypingInputEvent},
		Send:   SendClick,
		Stream: &StreamCapture{
			Method:      "POST",
			PathPattern: `^/api/v0/chat/completion$`,
			Decoder:     stream.DeepSeek,
		},
		Features: []Feature{FeatureChat, FeatureModelSelection, FeatureStreamCapture},
		Models: []Model{
			{Alias: "expert", Labels: []string{`data-model-type="expert"`}, Proof: []string{"expert"}},
			{Alias: "vision", Labels: []string{`data-model-type="vision"`}, Proof: []string{"vision"}},
		},
	})
}
