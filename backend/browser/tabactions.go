package browser

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/errs"
)

// CloseTab closes the tab targetID and waits (briefly) until the browser
// reports it gone. Errors: TargetNotFound for a TargetID that names no
// open tab; BrowserDisconnected.
func (b *Browser) CloseTab(ctx context.Context, targetID string) error {
	id := proto.TargetTargetID(targetID)
	var res proto.TargetCloseTargetResult
	if err := b.Call(ctx, "close the tab", "Target.closeTarget", proto.TargetCloseTarget{TargetID: id}, &res); err != nil {
		return notATab(err, targetID)
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		var info proto.TargetGetTargetInfoResult
		if err := b.Call(ctx, "look up the tab", "Target.getTargetInfo", proto.TargetGetTargetInfo{TargetID: id}, &info); err != nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

// WatchTargets calls changed (which must return quickly) each time a tab
// opens, closes, navigates or changes its title, until ctx ends or the
// connection drops.
func (b *Browser) WatchTargets(ctx context.Context, changed func()) {
	b.watchTargets(ctx, changed)()
}

// watchTargets subscribes to the browser's target events before it
// returns, and returns the loop that calls changed until ctx ends or the
// connection drops: a change made once watchTargets has returned is seen.
func (b *Browser) watchTargets(ctx context.Context, changed func()) (loop func()) {
	events, stop := b.subscribe(ctx, "", false)
	return func() {
		defer stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-b.life.Done():
				return
			case m, ok := <-events:
				if !ok {
					return
				}
				switch m.Method {
				case "Target.targetCreated", "Target.targetDestroyed", "Target.targetInfoChanged":
					changed()
				}
			}
		}
	}
}

// notATab is err, as TargetNotFound when the browser refused the id.
func notATab(err error, targetID string) error {
	if errs.Has(err, errs.Internal) || errs.Has(err, errs.TargetNotFound) {
		return errs.Wrap(err, errs.TargetNotFound, "no open tab has the id %s", targetID).
			WithEvidence("target_id", targetID).
			WithHint("the tab was closed: refresh the list of tabs")
	}
	return err
}
