package deepseek

import "github.com/ferrydesk/ferry/backend/site"

// Site returns the registry entry of DeepSeek (chat.deepseek.com). Send and stop are the same circle button;
// while generating it shows the .ds-loading spinner, which is therefore
// both the stop and the busy marker. The stop control to press is the
// button that holds the spinner (the spinner itself may have no size).
func Site() site.Site {
	return site.Site{
		ID:         "deepseek",
		Name:       "DeepSeek",
		Address:    "https://chat.deepseek.com/",
		NewChat:    "https://chat.deepseek.com/",
		LoginPaths: []string{"/sign_in"},
		Selectors: map[site.Role][]string{
			site.RoleComposer: {`textarea[placeholder='Message DeepSeek']`, `#chat-input`},
			site.RoleSend:     {`[role='button'].ds-button--primary.ds-button--circle:not(.ds-button--disabled):not([aria-disabled='true'])`},
			site.RoleStop:     {`[role='button'].ds-button--circle:has(.ds-loading)`, `[role='button'].ds-button--primary.ds-button--circle .ds-loading`, `.ds-loading`},
			site.RoleBusy:     {`.ds-loading`},
			// The user's messages are the list's items without an answer's
			// markdown (a reattach looks for the prompt's turn among them).
			site.RoleUserTurn:      {`[data-virtual-list-item-key]:not(:has(.ds-markdown)) .ds-message`},
			site.RoleAssistantTurn: {`[data-virtual-list-item-key]:has(.ds-markdown)`, `.ds-assistant-message-main-content`},
			site.RoleAnswerBody:    {`.ds-assistant-message-main-content .ds-markdown`, `.ds-markdown`},
			site.RoleCodeBlock:     {`.md-code-block pre`},
			site.RoleFinished:      {`[role='button'][aria-label='Read aloud']`},
			// The model "picker" is a radio group: each radio is an item.
			site.RoleModelPicker: {`div[data-model-type][aria-checked]`},
			site.RoleModelItem:   {`div[data-model-type]`},
		},
		Typing: []site.Typing{site.TypingNativeSetter, site.TypingInputEvent},
		Send:   site.SendClick,
		Stream: &site.StreamCapture{
			Method:      "POST",
			PathPattern: `^/api/v0/chat/completion$`,
			Decoder:     DecoderName,
		},
		// Only choosing a model needs these: a page without them still takes a plain ask.
		Optional: map[site.Role]site.Feature{
			site.RoleModelPicker: site.FeatureModelSelection,
			site.RoleModelItem:   site.FeatureModelSelection,
		},
		Features: []site.Feature{site.FeatureChat, site.FeatureModelSelection, site.FeatureStreamCapture},
		Models: []site.Model{
			{Alias: "expert", Labels: []string{`data-model-type="expert"`}, Proof: []string{"expert"}},
			{Alias: "vision", Labels: []string{`data-model-type="vision"`}, Proof: []string{"vision"}},
		},
		// The DeepThink toggle (the reference §7): off is standard.
		Efforts: []site.Effort{
			{Name: "standard", Labels: []string{"Standard"}, Level: 0},
			{Name: "deepthink", Labels: []string{"DeepThink"}, Level: 1},
		},
	}
}
