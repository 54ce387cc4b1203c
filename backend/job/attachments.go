package job

import (
	"context"
	"fmt"
	"strings"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/provider"
)

// attach puts the run's files in the composer and waits until the site
// shows each ready, before anything is typed; the receipt records what was
// proven. A run without attachments is returned as is. Errors: the
// adapter's (errs.AttachmentRejected, errs.AttachmentUnconfirmed,
// errs.CapabilityMissing): nothing was sent.
func (r *Runner) attach(ctx context.Context, s *Session, a provider.Adapter) (*Session, error) {
	if len(s.Attachments) == 0 {
		return s, nil
	}
	at, ok := a.(provider.Attacher)
	if !ok {
		return s, provider.CanAttach(a, len(s.Attachments))
	}
	if err := at.Attach(ctx, s.Attachments); err != nil {
		return s, err
	}
	out, err := r.repo.Update(ctx, s.ID, "", func(x *Session) error {
		x.Receipts = append(x.Receipts, Receipt{Layer: "attachments", At: r.now().UTC(), Data: attachmentReceipt(x.Attachments)})
		return nil
	})
	if err != nil {
		return s, err
	}
	return out, nil
}

func attachmentReceipt(files []attach.File) map[string]string {
	names := make([]string, len(files))
	var total int64
	for i, f := range files {
		names[i] = f.Name
		total += f.Bytes
	}
	return map[string]string{"files": strings.Join(names, ", "), "count": fmt.Sprint(len(files)),
		"bytes": fmt.Sprint(total), "proven": "each file shown by name and ready before the prompt was typed"}
}
