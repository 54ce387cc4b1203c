package sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Stopping an answer. On every simulated site the page's stop control
// (and, on ChatGPT, the stop endpoint it calls) is the only thing that
// stops a turn: a client that stops reading, such as Ferry's capture
// ending when a run is cancelled, changes nothing on the page, which
// goes on streaming and keeps its stop control until the answer ends. A
// press is recorded (StopPresses); RefuseStop makes a site's page ignore
// presses, as a site whose stop control does nothing would.

// stopControl is the server's state for stop presses.
type stopControl struct {
	refuse  map[string]bool // site ("" = every site) -> presses ignored
	honored map[string]int  // site -> presses that stopped a turn
	refused map[string]int  // site -> presses ignored
}

// RefuseStop makes the stop control of site ("" = every site) do nothing
// (refuse) or work again (!refuse): the page goes on streaming its answer.
func (s *Server) RefuseStop(site string, refuse bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stops.refuse == nil {
		s.stops.refuse = map[string]bool{}
	}
	if site == "" && !refuse {
		s.stops.refuse = map[string]bool{}
		return
	}
	s.stops.refuse[site] = refuse
}

// StopPresses reports how many presses on site's stop control stopped a
// turn (honored) and how many were ignored (refused, see RefuseStop).
func (s *Server) StopPresses(site string) (honored, refused int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stops.honored[site], s.stops.refused[site]
}

// pressStop records a press on site's stop control and reports whether
// the page must ignore it.
func (s *Server) pressStop(site string) (refuse bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stops.honored == nil {
		s.stops.honored, s.stops.refused = map[string]int{}, map[string]int{}
	}
	refuse = s.stops.refuse[site] || s.stops.refuse[""]
	if refuse {
		s.stops.refused[site]++
	} else {
		s.stops.honored[site]++
	}
	return refuse
}

// resetStops forgets the presses and the refusals. s.mu must be held.
func (s *Server) resetStops() { s.stops = stopControl{} }

// adminStop answers POST /__sim/stop {"site":"chatgpt","refuse":true}
// (RefuseStop) and POST /__sim/stop/press?site=chatgpt, which a page's
// stop control calls on each press: {"refuse":bool} says whether the page
// ignores it.
func (s *Server) adminStop(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/press") {
		site := r.URL.Query().Get("site")
		if _, ok := Hosts[site]; !ok {
			http.Error(w, fmt.Sprintf("unknown site %q", site), http.StatusBadRequest)
			return
		}
		WriteJSON(w, http.StatusOK, map[string]any{"refuse": s.pressStop(site)})
		return
	}
	var req struct {
		Site   string `json:"site"`
		Refuse bool   `json:"refuse"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "decode stop: "+err.Error()+` (want {"site":"chatgpt","refuse":true})`, http.StatusBadRequest)
		return
	}
	if _, ok := Hosts[req.Site]; !ok && req.Site != "" {
		http.Error(w, fmt.Sprintf("unknown site %q (known: %s)", req.Site, strings.Join(Sites(), ", ")), http.StatusBadRequest)
		return
	}
	s.RefuseStop(req.Site, req.Refuse)
	WriteJSON(w, http.StatusOK, map[string]any{"ok": true, "site": req.Site, "refuse": req.Refuse})
}
