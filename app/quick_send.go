package app

import (
	"context"

	"github.com/ferrydesk/ferry/backend/service"
)

// Send starts spec as a run from the quick prompt and returns it as
// created; its answer streams to the box as EventRun events. When Ferry's
// browser is not running yet it is launched minimized first, so that it
// does not come up over the box and whatever the user was doing (an
// attached browser, or one already up, is left as it is). Errors: the
// browser's launch envelopes (browser_not_found, browser_launch_failed);
// as Runs.Start.
func (q *Quick) Send(spec RunSpec) (RunInfo, error) {
	req, err := jobRequestOf(spec)
	if err != nil {
		return RunInfo{}, err
	}
	var out RunInfo
	err = q.sh.withService(func(svc service.Service) error {
		ctx := context.Background()
		st, err := svc.BrowserState(ctx, desktopCaller, service.BrowserStateRequest{})
		if err != nil {
			return err
		}
		if st.Status != service.BrowserConnected {
			if _, err := svc.ConnectBrowser(ctx, desktopCaller, service.ConnectBrowserRequest{Background: true}); err != nil {
				return err
			}
		}
		j, err := svc.SubmitJob(ctx, desktopCaller, req)
		if err != nil {
			return err
		}
		out, err = (&Runs{sh: q.sh}).info(ctx, svc, j)
		return err
	})
	return out, err
}
