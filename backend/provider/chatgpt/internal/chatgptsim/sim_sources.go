package chatgptsim

import (
	"encoding/json"
	"net/http"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// Project sources, from providers.md ("Tools", "Projects"): the project
// page's Sources tab (/g/g-p-<id>[-slug]/project?tab=sources) lists the
// project's files, and "Add sources" opens a dialog with
// input[type=file] (multiple), confirmed by "Upload" ("Add", "Continue").
// The dialog's files take the upload path of the composer's
// (sim.MountUploads: slot, PUT, processing stream; a file over the limit
// is refused there with the site's words), so the upload scenarios apply
// to it too (upload_limit, upload_slow: an upload that never completes
// within a wait). GAP, assumed: the endpoints behind the tab are not
// public; the simulator's are GET /backend-api/gizmos/{gizmo}/files (the
// list, {"items":[{file_id, name, size}]}) and POST of {"file_id"} there
// (a completed upload becomes a source: sim.Server.AddSource, the ledger
// tests read), and the sidebar's gizmo.files lists them too. The tab's and
// the dialog's markup are the simulator's own (sim_project.js).

// The scenarios of a project's Sources tab (page scenarios).
const (
	ScenarioSourcesNoDialog    = "sources_no_dialog"
	ScenarioSourcesWording     = "sources_wording"
	ScenarioSourcesTypeRefused = "sources_type_refused"
)

var sourcesScenarios = []sim.ScenarioInfo{
	{Name: ScenarioSourcesNoDialog, Page: true, About: "a project's \"Add sources\" button opens no dialog"},
	{Name: ScenarioSourcesWording, Page: true, About: "the Add sources dialog is confirmed by a button of param confirm (default \"Add\"; \"Continue\") instead of \"Upload\""},
	{Name: ScenarioSourcesTypeRefused, Page: true, About: "the Add sources dialog refuses a file whose name ends with param ext (default .exe) in a toast, \"<name>: this file type is not supported\""},
}

// projectByID is the account's project of gizmo id.
func projectByID(id string) (simProject, bool) {
	for _, p := range Projects {
		if p.ID == id {
			return p, true
		}
	}
	return simProject{}, false
}

// sourcesJSON lists project's sources as the list endpoint and the
// sidebar's gizmo.files carry them.
func (s *simServer) sourcesJSON(project string) []any {
	items := []any{}
	for _, src := range s.Sources(ID, project) {
		items = append(items, sim.O("file_id", src.ID, "name", src.Name, "size", src.Size))
	}
	return items
}

// chatgptSources serves GET and POST /backend-api/gizmos/{gizmo}/files:
// the project's sources, and a completed upload added to them.
func (s *simServer) chatgptSources(w http.ResponseWriter, r *http.Request) {
	p, ok := projectByID(r.PathValue("gizmo"))
	if !ok {
		sim.WriteJSON(w, http.StatusNotFound, sim.O("detail", "Project not found"))
		return
	}
	if r.Method == http.MethodGet {
		sim.WriteJSON(w, http.StatusOK, sim.O("items", s.sourcesJSON(p.ID)))
		return
	}
	var req struct {
		FileID string `json:"file_id"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&req); err != nil || req.FileID == "" {
		sim.WriteJSON(w, http.StatusBadRequest, sim.O("detail", "Invalid request body"))
		return
	}
	src, err := s.AddSource(ID, p.ID, req.FileID)
	if err != nil {
		sim.WriteJSON(w, http.StatusBadRequest, sim.O("detail", "File not found or not processed"))
		return
	}
	sim.WriteJSON(w, http.StatusOK, sim.O("file_id", src.ID, "name", src.Name, "size", src.Size))
}
