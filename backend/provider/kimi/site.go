package kimi

import "github.com/ferrydesk/ferry/backend/site"

// Site returns the registry entry of Kimi (www.kimi.com). Lexical editor: execCommand only, and no second input
// event. Send and stop share one div, told apart by class.
func Site() site.Site {
	return site.Site{
		ID:      "kimi",
		Name:    "Kimi",
		Address: "https://www.kimi.com/",
		NewChat: "https://www.kimi.com/",
		// kimi.moonshot.cn answers 307 to www.kimi.com since 2026-07 (the
		// reference, §6): its tabs and saved conversations are Kimi's.
		OldHosts: []string{"kimi.moonshot.cn"},
		Selectors: map[site.Role][]string{
			site.RoleComposer: {
				`.chat-input-editor[contenteditable="true"][data-lexical-editor="true"]`,
				`[data-lexical-editor="true"][contenteditable="true"]`,
			},
			site.RoleSend: {`.send-button-container:not(.stop):not(.loading):not(.disabled)`},
			site.RoleStop: {`.send-button-container.stop`},
			site.RoleBusy: {`.send-button-container.loading`},
			// Not in the reference, but every public Kimi exporter and
			// userscript names it beside the assistant's row.
			site.RoleUserTurn:      {`.chat-content-item-user`},
			site.RoleAssistantTurn: {`.chat-content-item-assistant`},
			site.RoleAnswerBody:    {`.markdown`},
			site.RoleCodeBlock:     {`pre code`},
			site.RoleFinished:      {`.segment-assistant-actions`},
			site.RoleReady:         {`.current-model`},
			site.RoleLoggedIn:      {`.user-info`, `[class*="user-avatar"]`},
			site.RoleLoggedOut:     {`.user-info-no-login`, `.login-button`},
			// The thinking of a thinking model renders first, as a
			// .markdown inside .thinking-container: never the answer.
			site.RoleThoughts: {`.thinking-container`},
		},
		Typing:       []site.Typing{site.TypingExecCommand},
		NoExtraInput: true,
		Send:         site.SendClick,
		Stream: &site.StreamCapture{
			Method: "POST",
			// The newest capture posts to kimi.chat.v1, older ones to
			// kimi.gateway.chat.v1: match both.
			PathPattern: `^/apiv2/kimi\.(?:gateway\.)?chat\.v1\.ChatService/Chat$`,
			Decoder:     DecoderName,
		},
		Features: []site.Feature{site.FeatureChat, site.FeatureStreamCapture},
	}
}
