package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

// Templates lists the built-in and the user's prompt templates.
func (c *Client) Templates(ctx context.Context) ([]hub.Template, error) {
	var out []hub.Template
	return out, c.do(ctx, http.MethodGet, "/v1/templates", nil, &out)
}

// Template returns one prompt template.
func (c *Client) Template(ctx context.Context, name string) (hub.Template, error) {
	var out hub.Template
	return out, c.do(ctx, http.MethodGet, "/v1/templates/"+url.PathEscape(name), nil, &out)
}

// SaveTemplate saves (or replaces) the user's template t.Name (owner only).
func (c *Client) SaveTemplate(ctx context.Context, t hub.Template) (hub.Template, error) {
	var out hub.Template
	return out, c.do(ctx, http.MethodPost, "/v1/templates", t, &out)
}

// DeleteTemplate deletes the user's template name (owner only).
func (c *Client) DeleteTemplate(ctx context.Context, name string) error {
	return c.do(ctx, http.MethodDelete, "/v1/templates/"+url.PathEscape(name), nil, nil)
}

// RenderTemplate fills template name with vars.
func (c *Client) RenderTemplate(ctx context.Context, name string, vars map[string]string) (service.Rendered, error) {
	var out service.Rendered
	return out, c.do(ctx, http.MethodPost, "/v1/templates/"+url.PathEscape(name)+"/render", hub.RenderBody{Vars: vars}, &out)
}
