package mcp

import (
	"context"
	"fmt"
	"strings"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/service"
)

// SitesResult is the site registry.
type SitesResult struct {
	Sites []SiteItem `json:"sites"`
}

// SiteItem is one site with its login state and capabilities.
type SiteItem struct {
	ID      string `json:"id" jsonschema:"the id to pass as site"`
	Name    string `json:"name"`
	Address string `json:"address"`
	Code    bool   `json:"code" jsonschema:"the site makes sandbox zips (the code tool)"`
	Builtin bool   `json:"builtin"`
	// Login is what Ferry knows of the site's tabs: ready, logged_out,
	// challenge, … or unknown when no tab of it is open (or this Ferry
	// cannot look).
	Login   string `json:"login" jsonschema:"ready, logged_out, challenge… from an open tab of the site; unknown when none is open"`
	Message string `json:"message,omitempty" jsonschema:"what stands in the way, and what the user can do"`
}

// TemplatesResult lists the templates.
type TemplatesResult struct {
	Templates []service.Template `json:"templates"`
}

// noInput is the input of a tool that takes none.
type noInput struct{}

func (s *Server) addRegistryTools() {
	addTool(s, &mcpsdk.Tool{Name: "sites", Title: "List the sites",
		Description: "The chat sites Ferry can drive, with each one's login state (from the user's open tabs) and whether it makes code zips.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true}},
		s.sites)
	addTool(s, &mcpsdk.Tool{Name: "templates", Title: "List the templates",
		Description: "The built-in and the user's saved prompt templates with their {{variables}}.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true}},
		s.templates)
}

// sites reads the registry and the tabs' states as the agent (the service
// shows it each site's login state, not the user's tabs); a login state
// it cannot read is unknown.
func (s *Server) sites(ctx context.Context, c call, _ noInput) (SitesResult, string, error) {
	infos, err := s.svc.ListSites(ctx, c.caller, service.ListSitesRequest{})
	if err != nil {
		return SitesResult{}, "", err
	}
	states := map[string]service.TabState{}
	if tabs, err := s.svc.TabStates(ctx, c.caller, service.TabStatesRequest{}); err == nil {
		for _, t := range tabs {
			if _, seen := states[t.Site]; !seen || t.State == "ready" {
				states[t.Site] = t
			}
		}
	}
	out := SitesResult{Sites: make([]SiteItem, 0, len(infos))}
	var b strings.Builder
	for _, in := range infos {
		it := SiteItem{ID: in.ID, Name: in.Name, Address: in.Address, Code: in.Code, Builtin: in.Builtin, Login: "unknown"}
		if t, ok := states[in.ID]; ok {
			it.Login = string(t.State)
			it.Message = strings.TrimSpace(t.Message + " " + t.Hint)
		}
		out.Sites = append(out.Sites, it)
		fmt.Fprintf(&b, "%s (%s): %s", it.ID, it.Name, it.Login)
		if it.Code {
			b.WriteString(", code zips")
		}
		b.WriteString("\n")
	}
	return out, strings.TrimSpace(b.String()), nil
}

func (s *Server) templates(ctx context.Context, c call, _ noInput) (TemplatesResult, string, error) {
	list, err := s.svc.ListTemplates(ctx, c.caller, service.ListTemplatesRequest{})
	if err != nil {
		return TemplatesResult{}, "", err
	}
	var b strings.Builder
	for _, t := range list {
		fmt.Fprintf(&b, "%s", t.Name)
		if len(t.Variables) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(t.Variables, ", "))
		}
		if t.Description != "" {
			fmt.Fprintf(&b, ": %s", t.Description)
		}
		b.WriteString("\n")
	}
	return TemplatesResult{Templates: list}, strings.TrimSpace(b.String()), nil
}
