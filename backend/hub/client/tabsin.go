package client

import (
	"context"
	"net/http"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

// ListTabsIn lists the tabs of the browser spec names (the owner's only),
// each with its site and state.
// Errors: the hub's envelopes.
func (c *Client) ListTabsIn(ctx context.Context, spec service.BrowserSpec) ([]hub.Tab, error) {
	var out []hub.Tab
	return out, c.do(ctx, http.MethodGet, "/v1/tabs"+query(hub.TabsBrowserQuery(spec)), nil, &out)
}
