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
	shown, err := at.Attach(ctx, s.Attachments)
	if err != nil {
		return s, err
	}
	out, err := r.repo.Update(ctx, s.ID, "", func(x *Session) error {
		for i := range x.Attachments {
			if i < len(shown) && shown[i] != "" && shown[i] != x.Attachments[i].Name {
				x.Attachments[i].SiteName = shown[i]
			}
		}
		x.Receipts = append(x.Receipts, Receipt{Layer: "attachments", At: r.now().UTC(), Data: attachmentReceipt(x.Attachments)})
		return nil
	})
	if err != nil {
		return s, err
	}
	return out, nil
}

// attachmentReceipt is what the attachments layer proved; a file the site
// renamed itself is listed as "name (the site named it siteName)" and the
// receipt says site_renamed.
func attachmentReceipt(files []attach.File) map[string]string {
	names := make([]string, len(files))
	var renamed []string
	var total int64
	for i, f := range files {
		names[i] = f.Name
		if f.SiteName != "" {
			names[i] += " (the site named it " + f.SiteName + ")"
			renamed = append(renamed, f.Name+" → "+f.SiteName)
		}
		total += f.Bytes
	}
	out := map[string]string{"files": strings.Join(names, ", "), "count": fmt.Sprint(len(files)),
		"bytes": fmt.Sprint(total), "proven": "each file shown by name and ready before the prompt was typed"}
	if len(renamed) > 0 {
		out["site_renamed"] = strings.Join(renamed, ", ")
		out["proven"] = "each file shown ready before the prompt was typed, by its name or, for a name the site's library already held, by the site's new tile of it"
	}
	return out
}
