package job

import "github.com/ferrydesk/ferry/backend/provider"

// Result is the session's answer with its proof, in the shape of
// provider.Ask's Result (what `ferry ask --json` prints): code blocks never
// nil, the routing, transport, content and timing proofs as recorded (zero
// when the run did not get there).
func (s *Session) Result() provider.Result {
	res := provider.Result{Site: s.Site, Answer: s.Answer, CodeBlocks: s.CodeBlocks, Model: s.Model,
		ConversationID: s.ConversationID, MessageID: s.MessageID, Warnings: s.Warnings}
	if res.CodeBlocks == nil {
		res.CodeBlocks = []provider.CodeBlock{}
	}
	if s.Routing != nil {
		res.Routing = *s.Routing
	}
	if s.Transport != nil {
		res.Transport = *s.Transport
	}
	if s.Content != nil {
		res.Content = *s.Content
	}
	if s.Timings != nil {
		res.Timings = *s.Timings
	}
	return res
}
