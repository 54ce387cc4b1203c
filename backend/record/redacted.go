package record

import "github.com/ferrydesk/ferry/backend/redact"

// Redacted returns a copy of r safe to show or export: the conversation and
// routing addresses without query, fragment and userinfo (where sites put
// one-off tokens), and the evidence of its error and receipts under
// secret-looking keys replaced by "[redacted]".
func (r *Run) Redacted() *Run {
	c := *r
	c.ConversationURL = redact.URL(r.ConversationURL)
	if r.Error != nil {
		e := *r.Error
		e.Evidence = redact.Evidence(r.Error.Evidence)
		c.Error = &e
	}
	if r.Routing != nil {
		rt := *r.Routing
		rt.URL = redact.URL(rt.URL)
		c.Routing = &rt
	}
	c.Receipts = make([]Receipt, len(r.Receipts))
	for i, rc := range r.Receipts {
		rc.Data = redact.Evidence(rc.Data)
		c.Receipts[i] = rc
	}
	if len(c.Receipts) == 0 {
		c.Receipts = nil
	}
	return &c
}
