package chatgptsim

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// Projects and custom GPTs, from providers.md ("Tools", "Projects"): a
// project's page is /g/g-p-<id>[-slug]/project, its chats
// /g/<short_url>/c/<id>; GET /backend-api/gizmos/snorlax/sidebar lists the
// projects (items[].gizmo.gizmo.{id, short_url, display.name}). A custom
// GPT is /g/g-<id>[-slug] (its page behaviour is not public: the
// simulator gives it the chat page). A send from either names its gizmo_id.

// simProject is one of the account's projects.
type simProject struct{ ID, ShortURL, Name string }

// Projects are the simulated account's projects (two share no name; a
// third's name differs from the first's only in case, for ambiguity).
var Projects = []simProject{
	{ID: "g-p-68a0c2f1d3e44b7a9c55e0f1a2b3c4d5", ShortURL: "g-p-68a0c2f1d3e44b7a9c55e0f1a2b3c4d5-harbour-notes", Name: "Harbour notes"},
	{ID: "g-p-7b11aa09e2c84f6d8e3a5c7b9d1f0e2a", ShortURL: "g-p-7b11aa09e2c84f6d8e3a5c7b9d1f0e2a-ferry-research", Name: "Ferry research"},
	{ID: "g-p-90c3d5e7f9a14b2c8d6e4f0a1b3c5d7e", ShortURL: "g-p-90c3d5e7f9a14b2c8d6e4f0a1b3c5d7e", Name: "Shared"},
	{ID: "g-p-a1b2c3d4e5f60718293a4b5c6d7e8f90", ShortURL: "g-p-a1b2c3d4e5f60718293a4b5c6d7e8f90-shared", Name: "shared"},
}

// gizmoOf is the gizmo id of a /g/<short_url>… address's short_url: a
// project's g-p-<32 hex>, a GPT's g-<id> (its slug after the first dash
// of the id's end); "" for anything else.
func gizmoOf(short string) string {
	if strings.HasPrefix(short, "g-p-") && len(short) >= 36 {
		return short[:36]
	}
	if id, _, _ := strings.Cut(strings.TrimPrefix(short, "g-"), "-"); strings.HasPrefix(short, "g-") && id != "" {
		return "g-" + id
	}
	return ""
}

// chatgptSidebar serves GET /backend-api/gizmos/snorlax/sidebar.
func (s *simServer) chatgptSidebar(w http.ResponseWriter, r *http.Request) {
	per, _ := strconv.Atoi(r.URL.Query().Get("conversations_per_gizmo"))
	items := make([]any, 0, len(Projects))
	for _, p := range Projects {
		convs := []any{}
		s.mu.Lock()
		for _, c := range s.convs {
			if c.Gizmo == p.ID && len(convs) < per {
				convs = append(convs, sim.O("id", c.ID, "title", c.Title))
			}
		}
		s.mu.Unlock()
		items = append(items, sim.O("gizmo", sim.O("gizmo", sim.O("id", p.ID, "organization_id", "org-sim", "short_url", p.ShortURL,
			"display", sim.O("name", p.Name, "description", "", "emoji", nil, "theme", nil), "gizmo_type", "snorlax"),
			"tools", []any{}, "files", s.sourcesJSON(p.ID)), "conversations", sim.O("items", convs, "cursor", nil)))
	}
	sim.WriteJSON(w, http.StatusOK, sim.O("items", items, "cursor", nil))
}

// placeRoutes adds the project, project chat and GPT pages to mux.
func (s *simServer) placeRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /backend-api/gizmos/snorlax/sidebar", s.chatgptBearer(s.chatgptSidebar))
	mux.HandleFunc("GET /backend-api/gizmos/{gizmo}/files", s.chatgptBearer(s.chatgptSources))
	mux.HandleFunc("POST /backend-api/gizmos/{gizmo}/files", s.chatgptBearer(s.chatgptSources))
	page := func(conv func(r *http.Request) string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if gizmoOf(r.PathValue("short")) == "" {
				http.NotFound(w, r)
				return
			}
			s.ServePage(w, r, ID, conv(r))
		}
	}
	mux.HandleFunc("GET /g/{short}/project", page(func(*http.Request) string { return "" }))
	mux.HandleFunc("GET /g/{short}/c/{id}", page(func(r *http.Request) string { return r.PathValue("id") }))
	mux.HandleFunc("GET /g/{short}", page(func(*http.Request) string { return "" }))
}
