package sim

import (
	"net/http"
	"strconv"
	"time"
)

// conversation is one ChatGPT conversation: the mapping tree the web app and
// GET /backend-api/conversation/<id> expose, plus the sandbox files.
type conversation struct {
	ID        string
	Title     string
	Created   time.Time
	Updated   time.Time
	Model     string
	Nodes     map[string]*node
	Current   string
	Sandbox   map[string]*sandboxFile // "/mnt/data/x.zip" -> file
	Expired   bool                    // sandbox_expired: interpreter/download answers ace_pod_expired
	Forbid    bool                    // estuary_403
	Limits    []any
	Turns     int
	Anonymous bool
}

type node struct {
	ID       string
	Parent   string
	Children []string
	Message  Obj // nil for the root
}

type sandboxFile struct {
	Spec     zipSpec
	Messages []string // ids of messages that mention the path
}

// fileRef is a minted estuary file.
type fileRef struct {
	Spec    zipSpec
	Name    string
	Conv    string
	TS      int64
	Forbid  bool
	Expires time.Time
}

const rootNode = "client-created-root"

func newConversation(id string) *conversation {
	now := time.Now()
	c := &conversation{ID: id, Created: now, Updated: now, Nodes: map[string]*node{}, Sandbox: map[string]*sandboxFile{}}
	c.Nodes[rootNode] = &node{ID: rootNode}
	c.Current = rootNode
	return c
}

func (c *conversation) add(parent string, msg Obj) {
	id := msg[0].V.(string)
	if _, ok := c.Nodes[parent]; !ok {
		parent = c.Current
	}
	c.Nodes[id] = &node{ID: id, Parent: parent, Message: msg}
	c.Nodes[parent].Children = append(c.Nodes[parent].Children, id)
	c.Current = id
	c.Updated = time.Now()
}

func (c *conversation) json() Obj {
	mapping := Obj{}
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
		mapping = append(mapping, kv{id, O("id", id, "message", m, "parent", parent, "children", children)})
	}
	return O("title", c.Title, "create_time", float64(c.Created.UnixMilli())/1000, "update_time", float64(c.Updated.UnixMilli())/1000,
		"mapping", mapping, "moderation_results", []any{}, "current_node", c.Current, "plugin_ids", nil,
		"conversation_id", c.ID, "conversation_template_id", nil, "gizmo_id", nil, "is_archived", false,
		"safe_urls", []any{}, "default_model_slug", c.Model, "id", c.ID,
		"conversation_detail_metadata", O("limits_progress", c.limitsProgress()))
}

func (c *conversation) limitsProgress() []any {
	if c.Limits != nil {
		return c.Limits
	}
	return []any{O("feature_name", "deep_research", "remaining", 25, "reset_after", time.Now().Add(30*24*time.Hour).UTC().Format(time.RFC3339))}
}

// order lists node ids root first, depth first, so the JSON reads naturally.
func (c *conversation) order() []string {
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
func chatgptMessage(id, role, name string, content Obj, status string, endTurn any, meta Obj, recipient string, channel any) Obj {
	var n any
	if name != "" {
		n = name
	}
	if meta == nil {
		meta = Obj{}
	}
	now := float64(time.Now().UnixMilli()) / 1000
	return O("id", id, "author", O("role", role, "name", n, "metadata", Obj{}), "create_time", now, "update_time", nil,
		"content", content, "status", status, "end_turn", endTurn, "weight", 1.0, "metadata", meta,
		"recipient", recipient, "channel", channel)
}

func (s *Server) conv(id string) *conversation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.convs[id]
}

// handleConversationGet serves GET /backend-api/conversation/<id>.
func (s *Server) handleConversationGet(w http.ResponseWriter, r *http.Request, id string) {
	if until := s.lockedUntil(ChatGPT); !until.IsZero() {
		w.Header().Set("Retry-After", retryAfter(until))
		WriteJSON(w, http.StatusTooManyRequests, O("detail", "Too many requests. You're making requests too quickly. We've temporarily limited access to your conversations to protect our systems. Please wait a few minutes before trying again."))
		return
	}
	s.mu.Lock()
	c := s.convs[id]
	var body string
	if c != nil {
		body = CompactJSON(c.json())
	}
	s.mu.Unlock()
	if c == nil {
		WriteJSON(w, http.StatusNotFound, O("detail", O("code", "conversation_not_found", "message", "Conversation not found")))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(body))
}

func retryAfter(until time.Time) string {
	return strconv.Itoa(int(time.Until(until).Seconds()) + 1)
}
