package chatgptsim

import (
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simzip"
)

// conversation is one ChatGPT conversation: the mapping tree the web app and
// GET /backend-api/conversation/<id> expose, plus the sandbox files.
type simConversation struct {
	ID        string
	Title     string
	Created   time.Time
	Updated   time.Time
	Model     string
	Nodes     map[string]*simNode
	Current   string
	Sandbox   map[string]*simSandboxFile // "/mnt/data/x.zip" -> file
	Expired   bool                       // sandbox_expired: interpreter/download answers ace_pod_expired
	Forbid    bool                       // estuary_403
	Limits    []any
	Turns     int
	Anonymous bool
	// Temporary: a temporary chat's, opened again only with its
	// conv_key_<id> cookie. Archived: PATCHed is_archived.
	Temporary bool
	Archived  bool
	Gizmo     string // the project's or custom GPT's id ("" for none)
}

type simNode struct {
	ID       string
	Parent   string
	Children []string
	Message  sim.Obj // nil for the root
}

type simSandboxFile struct {
	Spec     simzip.Spec
	Messages []string // ids of messages that mention the path
}

// fileRef is a minted estuary file.
type simFileRef struct {
	Spec    simzip.Spec
	Name    string
	Conv    string
	TS      int64
	Forbid  bool
	Expires time.Time
	// Body and Mime are a generated image's bytes and type (nil Body: a
	// sandbox zip of Spec); its signature lapses DownloadTTL after ts.
	Body []byte
	Mime string
}

const rootNode = "client-created-root"

func newConversation(id string) *simConversation {
	now := time.Now()
	c := &simConversation{ID: id, Created: now, Updated: now, Nodes: map[string]*simNode{}, Sandbox: map[string]*simSandboxFile{}}
	c.Nodes[rootNode] = &simNode{ID: rootNode}
	c.Current = rootNode
	return c
}

func (c *simConversation) add(parent string, msg sim.Obj) {
	id := msg[0].V.(string)
	if n, ok := c.Nodes[id]; ok {
		// The same message again (an answer finished after its reader
		// left): it replaces the stored one in place.
		n.Message = msg
		c.Updated = time.Now()
		return
	}
	if _, ok := c.Nodes[parent]; !ok {
		parent = c.Current
	}
	c.Nodes[id] = &simNode{ID: id, Parent: parent, Message: msg}
	c.Nodes[parent].Children = append(c.Nodes[parent].Children, id)
	c.Current = id
	c.Updated = time.Now()
}

func (c *simConversation) json() sim.Obj {
	mapping := sim.Obj{}
	for _, id := range c.order() {
		n := c.Nodes[id]
		var m any
		if n.Message != nil {
			m = n.Message
		}
		var parent any
		if n.Parent != "" {
			parent = n.Parent
		}
		children := n.Children
		if children == nil {
			children = []string{}
		}
		mapping = append(mapping, sim.KV{K: id, V: sim.O("id", id, "message", m, "parent", parent, "children", children)})
	}
	return sim.O("title", c.Title, "create_time", float64(c.Created.UnixMilli())/1000, "update_time", float64(c.Updated.UnixMilli())/1000,
		"mapping", mapping, "moderation_results", []any{}, "current_node", c.Current, "plugin_ids", nil,
		"conversation_id", c.ID, "conversation_template_id", nil, "gizmo_id", nilIfEmpty(c.Gizmo), "is_archived", c.Archived,
		"safe_urls", []any{}, "default_model_slug", c.Model, "id", c.ID,
		"conversation_detail_metadata", sim.O("limits_progress", c.limitsProgress()))
}

func (c *simConversation) limitsProgress() []any {
	if c.Limits != nil {
		return c.Limits
	}
	return []any{sim.O("feature_name", "deep_research", "remaining", 25, "reset_after", time.Now().Add(30*24*time.Hour).UTC().Format(time.RFC3339))}
}

// order lists node ids root first, depth first, so the JSON reads naturally.
func (c *simConversation) order() []string {
	var out []string
	var walk func(id string)
	walk = func(id string) {
		out = append(out, id)
		for _, ch := range c.Nodes[id].Children {
			walk(ch)
		}
	}
	walk(rootNode)
	return out
}

// chatgptMessage builds a message object with the real field order.
func chatgptMessage(id, role, name string, content sim.Obj, status string, endTurn any, meta sim.Obj, recipient string, channel any) sim.Obj {
	var n any
	if name != "" {
		n = name
	}
	if meta == nil {
		meta = sim.Obj{}
	}
	now := float64(time.Now().UnixMilli()) / 1000
	return sim.O("id", id, "author", sim.O("role", role, "name", n, "metadata", sim.Obj{}), "create_time", now, "update_time", nil,
		"content", content, "status", status, "end_turn", endTurn, "weight", 1.0, "metadata", meta,
		"recipient", recipient, "channel", channel)
}

func (s *simServer) conv(id string) *simConversation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.convs[id]
}

// handleConversationGet serves GET /backend-api/conversation/<id>.
func (s *simServer) handleConversationGet(w http.ResponseWriter, r *http.Request, id string) {
	if until := s.LockedUntil(ID); !until.IsZero() {
		w.Header().Set("Retry-After", sim.RetryAfter(until))
		sim.WriteJSON(w, http.StatusTooManyRequests, sim.O("detail", "Too many requests. You're making requests too quickly. We've temporarily limited access to your conversations to protect our systems. Please wait a few minutes before trying again."))
		return
	}
	s.mu.Lock()
	c := s.convs[id]
	var body string
	if c != nil && c.Temporary {
		if ck, err := r.Cookie("conv_key_" + id); err != nil || ck.Value != s.MACHex("conv_key", id)[:32] {
			c = nil
		}
	}
	if c != nil {
		s.refreshResearch(c)
		body = sim.CompactJSON(c.json())
	}
	s.mu.Unlock()
	if c == nil {
		sim.WriteJSON(w, http.StatusNotFound, sim.O("detail", sim.O("code", "conversation_not_found", "message", "Conversation not found")))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(body))
}

// chatgptPatchConversation serves PATCH /backend-api/conversation/<id>
// {"is_archived": true|false}: {"success": true}, the conversation's
// is_archived set (404 for one it does not know).
func (s *simServer) chatgptPatchConversation(w http.ResponseWriter, r *http.Request) {
	var req struct {
		IsArchived *bool `json:"is_archived"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&req); err != nil || req.IsArchived == nil {
		sim.WriteJSON(w, http.StatusUnprocessableEntity, sim.O("detail", "is_archived is required"))
		return
	}
	s.mu.Lock()
	c := s.convs[r.PathValue("id")]
	if c != nil {
		c.Archived = *req.IsArchived
	}
	s.mu.Unlock()
	if c == nil {
		sim.WriteJSON(w, http.StatusNotFound, sim.O("detail", sim.O("code", "conversation_not_found", "message", "Conversation not found")))
		return
	}
	sim.WriteJSON(w, http.StatusOK, sim.O("success", true))
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
