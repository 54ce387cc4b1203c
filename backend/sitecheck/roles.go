package sitecheck

import "github.com/ferrydesk/ferry/backend/site"

// look is how to find the elements that look like a role: the CSS shape
// of such an element, the words its test id, aria-label, id, placeholder,
// classes or label carry, and a shape that counts by itself.
type look struct {
	Role   site.Role `json:"role"`
	Shape  string    `json:"shape"`
	Strong string    `json:"strong,omitempty"`
	Words  []string  `json:"words"`
	Hidden bool      `json:"hidden,omitempty"`
}

const (
	controlShape = `button,[role="button"],a,input[type="submit"]`
	blockShape   = `div,article,section,li,main,[role]`
	editorShape  = `textarea,[contenteditable="true"],[contenteditable=""],[role="textbox"],input[type="text"]`
)

// looks are the shapes and words of every role.
var looks = map[site.Role]look{
	site.RoleComposer:      {Shape: editorShape, Strong: `textarea,[contenteditable="true"],[contenteditable=""]`, Words: []string{"prompt", "message", "composer", "editor", "chat", "ask", "query"}},
	site.RoleSend:          {Shape: controlShape + `,[class*="send"],[class*="submit"]`, Strong: `[type="submit"]`, Words: []string{"send", "submit"}},
	site.RoleStop:          {Shape: controlShape, Words: []string{"stop", "halt"}},
	site.RoleBusy:          {Shape: blockShape, Words: []string{"streaming", "generating", "loading"}},
	site.RoleUserTurn:      {Shape: blockShape, Words: []string{"user", "human", "query"}},
	site.RoleAssistantTurn: {Shape: blockShape, Words: []string{"assistant", "response", "answer", "bot"}},
	site.RoleAnswerBody:    {Shape: blockShape, Words: []string{"markdown", "answer", "response", "prose"}},
	site.RoleCodeBlock:     {Shape: `pre,code`, Strong: `pre code`, Words: []string{"code"}},
	site.RoleFinished:      {Shape: controlShape, Words: []string{"copy", "retry", "regenerate", "feedback"}},
	site.RoleModelPicker:   {Shape: controlShape + `,[aria-haspopup]`, Words: []string{"model", "switcher", "picker"}},
	site.RoleModelItem:     {Shape: `[role^="menuitem"],[role="option"]`, Words: []string{"model", "item", "option"}},
	site.RoleLoggedIn:      {Shape: controlShape + `,img`, Words: []string{"user", "avatar", "profile", "account"}},
	site.RoleLoggedOut:     {Shape: controlShape, Words: []string{"log in", "login", "sign in", "signin"}},
	site.RoleFileInput:     {Shape: `input[type="file"]`, Strong: `input[type="file"]`, Words: []string{"file", "upload", "attach"}, Hidden: true},
	site.RoleErrorText:     {Shape: blockShape, Words: []string{"error", "alert"}},
	site.RoleNewChat:       {Shape: controlShape, Words: []string{"new chat", "new-chat", "newchat"}},
	site.RoleThoughts:      {Shape: blockShape, Words: []string{"thought", "thinking", "reasoning"}},
	site.RoleReady:         {Shape: blockShape, Words: []string{"app", "ready"}},
	site.RoleTokenCount:    {Shape: blockShape, Words: []string{"token"}},
}

// hiddenRoles are matched also when not visible (a file input is hidden).
var hiddenRoles = map[site.Role]bool{site.RoleFileInput: true}

// relaxedRoles are also matched without their selectors' :not(...) state
// filters: a send control disabled while the composer is empty is there.
var relaxedRoles = map[site.Role]bool{site.RoleSend: true}

// expectation is when the page must show a role.
type expectation int

const (
	never    expectation = iota // only while something happens (stop, menu open, error)
	always                      // on every ready page of a logged-in user
	withTurn                    // once the thread holds a turn
	finished                    // once the thread holds a finished turn
)

var expected = map[site.Role]expectation{
	site.RoleComposer:      always,
	site.RoleSend:          always,
	site.RoleModelPicker:   always,
	site.RoleLoggedIn:      always,
	site.RoleFileInput:     always,
	site.RoleReady:         always,
	site.RoleUserTurn:      withTurn,
	site.RoleAssistantTurn: withTurn,
	site.RoleAnswerBody:    withTurn,
	site.RoleFinished:      finished,
}

// notShownNote says when the page shows a role it need not show now.
var notShownNote = map[site.Role]string{
	site.RoleStop:          "shown only while an answer is generated",
	site.RoleBusy:          "shown only while an answer is generated",
	site.RoleUserTurn:      "no turn in this tab: send a prompt in it and check again",
	site.RoleAssistantTurn: "no turn in this tab: send a prompt in it and check again",
	site.RoleAnswerBody:    "no turn in this tab: send a prompt in it and check again",
	site.RoleFinished:      "no finished turn in this tab: check again once an answer has ended",
	site.RoleCodeBlock:     "shown only in an answer with code",
	site.RoleModelItem:     "shown only while the model menu is open",
	site.RoleLoggedOut:     "shown only to a logged-out user",
	site.RoleErrorText:     "shown only when the site reports an error",
	site.RoleNewChat:       "not on the page now (a collapsed sidebar hides it)",
	site.RoleThoughts:      "shown only in an answer of a thinking model",
	site.RoleTokenCount:    "shown only while the composer holds text",
	site.RoleSend:          "some sites show it only while the composer holds text; the check never types",
}
