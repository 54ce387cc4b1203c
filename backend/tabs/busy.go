package tabs

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// StillWriting is why a tab whose site did not stop at Cancel is busy
// (the queue notice of a run that waits for it says so).
const StillWriting = "is still writing the answer of a cancelled run"

// WatchBusy keeps page, the tab of a run the user cancelled whose site
// did not stop writing (job.SiteWentOn), leased until the site's answer
// ends, so that the site's next run takes another tab (or waits for this
// one, saying why) rather than typing into a page that is still
// answering; then it detaches from the tab and calls release, which ends
// the lease. The answer has ended when a's Ready passes (no stop control
// left); a Ready that fails otherwise (the tab gone, logged out) ends the
// watch too: the next run reports what it finds. The watch ends after
// within whatever happens: the longest answer a site writes ends well
// within a run's deadline.
func (l *Leases) WatchBusy(b *browser.Browser, page *browser.Page, a provider.Adapter, release context.CancelFunc, within time.Duration) {
	defer release()
	l.setWhy(b, page.ID(), StillWriting)
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for ctx.Err() == nil {
		if err := a.Ready(ctx); !errs.Has(err, errs.TabBusy) {
			break
		}
	}
	dctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	_ = page.Detach(dctx)
}
