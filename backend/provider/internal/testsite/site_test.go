package testsite

import "github.com/ferrydesk/ferry/backend/site"

// Site returns the test site's registry entry: a plain textarea, a send
// button that exists while there is text, a stop button while the answer
// streams, and an actions bar under a finished answer.
func Site() site.Site {
	return site.Site{
		ID:      ID,
		Name:    "Test site",
		Address: "https://chat.testsite.example/",
		NewChat: "https://chat.testsite.example/",
		Selectors: map[site.Role][]string{
			site.RoleComposer:      {`textarea.ts-composer`},
			site.RoleSend:          {`button.ts-send:not([disabled])`},
			site.RoleStop:          {`button.ts-stop`},
			site.RoleAssistantTurn: {`.ts-turn-assistant`},
			site.RoleAnswerBody:    {`.ts-answer`},
			site.RoleCodeBlock:     {`pre code`},
			site.RoleFinished:      {`.ts-actions`},
			site.RoleReady:         {`.ts-model-label`},
			site.RoleLoggedIn:      {`.ts-user`},
			site.RoleLoggedOut:     {`a.ts-login`},
		},
		Typing: []site.Typing{site.TypingNativeSetter, site.TypingInputEvent},
		Send:   site.SendClick,
		Stream: &site.StreamCapture{
			Method:      "POST",
			PathPattern: `^/api/ask$`,
			Decoder:     DecoderName,
		},
		Features: []site.Feature{site.FeatureChat, site.FeatureStreamCapture},
	}
}
