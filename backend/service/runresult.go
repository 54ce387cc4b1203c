package service

// Result is the answer of r with its proof, as `ferry ask --json` prints
// it (job.Session.Result): missing proofs are zero, code blocks never nil.
func (r *Run) Result() Result {
	res := Result{Site: r.Site, Answer: r.Answer, CodeBlocks: r.CodeBlocks, Model: r.Model,
		ConversationID: r.ConversationID, MessageID: r.MessageID, Warnings: r.Warnings}
	if res.CodeBlocks == nil {
		res.CodeBlocks = []CodeBlock{}
	}
	if r.Routing != nil {
		res.Routing = *r.Routing
	}
	if r.Transport != nil {
		res.Transport = *r.Transport
	}
	if r.Content != nil {
		res.Content = *r.Content
	}
	if r.Timings != nil {
		res.Timings = *r.Timings
	}
	return res
}

// Policies are the interstitial policies r applied (its policy receipts:
// kind, trigger, action, cooldown_ms, retry_of, ...), in order; empty, not
// nil, when the site never interfered.
func (r *Run) Policies() []map[string]string {
	out := []map[string]string{}
	for _, rc := range r.Receipts {
		if rc.Layer == "policy" {
			out = append(out, rc.Data)
		}
	}
	return out
}
