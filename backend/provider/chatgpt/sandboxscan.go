package chatgpt

import (
	"encoding/json"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
)

// ChatGPT's record of a conversation, as the sandbox scan reads it: the
// mapping of nodes, the current branch, and where in a message a sandbox
// path can appear (text parts, a tool's execution_output, the
// final_expression_output of aggregate_result).

// The places of a ChatGPT message, besides its text, where a sandbox path
// can appear.
const (
	SourceExecution       artifact.Source = "execution_output" // the text of a tool's execution_output
	SourceFinalExpression artifact.Source = "final_expression" // aggregate_result.final_expression_output
)

// Conversation is the part of `GET /backend-api/conversation/<id>` the scan
// reads.
type Conversation struct {
	ConversationID string          `json:"conversation_id"`
	ID             string          `json:"id"`
	CurrentNode    string          `json:"current_node"`
	Mapping        map[string]Node `json:"mapping"`
}

// Node is one entry of the conversation's mapping.
type Node struct {
	ID       string         `json:"id"`
	Message  *RecordMessage `json:"message"`
	Parent   string         `json:"parent"`
	Children []string       `json:"children"`
}

// RecordMessage is a message of the conversation record, reduced to what the scan needs.
type RecordMessage struct {
	ID     string `json:"id"`
	Author struct {
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"author"`
	Content struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
		Text        string            `json:"text"`
	} `json:"content"`
	Metadata struct {
		AggregateResult *struct {
			FinalExpressionOutput string `json:"final_expression_output"`
		} `json:"aggregate_result"`
	} `json:"metadata"`
	Channel string `json:"channel"`
}

// ParseConversation decodes the conversation JSON. Malformed JSON is an
// ArtifactNotFound envelope, since nothing can be scanned.
func ParseConversation(data []byte) (*Conversation, error) {
	var c Conversation
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, errs.Wrap(err, errs.ArtifactNotFound, "parse conversation json: %v", err)
	}
	return &c, nil
}

// Branch returns the messages of the conversation's current branch, oldest
// first: the walk from current_node up through parent, reversed. A cycle or
// a missing current node is an ArtifactNotFound envelope.
func (c *Conversation) Branch() ([]*RecordMessage, error) {
	if c.CurrentNode == "" {
		return nil, errs.New(errs.ArtifactNotFound, "the conversation has no current_node")
	}
	var out []*RecordMessage
	seen := map[string]bool{}
	for id := c.CurrentNode; id != ""; {
		if seen[id] {
			return nil, errs.New(errs.ArtifactNotFound, "the conversation's parent chain loops at node %q", id)
		}
		seen[id] = true
		n, ok := c.Mapping[id]
		if !ok {
			if len(out) == 0 {
				return nil, errs.New(errs.ArtifactNotFound, "current_node %q is not in the mapping", id)
			}
			break
		}
		if n.Message != nil {
			out = append(out, n.Message)
		}
		id = n.Parent
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// ScanConversation finds every sandbox zip on the current branch, in
// first-seen order, deduplicated, each with the messages that hold it. User
// and system messages are skipped: Ferry's own prompt names the paths it
// asks for, and those are not proof that a file exists. Errors: Branch's.
func ScanConversation(c *Conversation) (*artifact.ScanResult, error) {
	msgs, err := c.Branch()
	if err != nil {
		return nil, err
	}
	s := artifact.NewScanner()
	for _, m := range msgs {
		switch m.Author.Role {
		case "user", "system":
			continue
		}
		tool := m.Author.Role == "tool"
		switch m.Content.ContentType {
		case "text", "multimodal_text":
			for _, raw := range m.Content.Parts {
				var part string
				if json.Unmarshal(raw, &part) == nil {
					s.Text(part, m.ID, tool, artifact.SourcePlain)
				}
			}
		case "execution_output":
			s.Text(m.Content.Text, m.ID, true, SourceExecution)
		}
		if ar := m.Metadata.AggregateResult; ar != nil && ar.FinalExpressionOutput != "" {
			s.Text(ar.FinalExpressionOutput, m.ID, true, SourceFinalExpression)
		}
	}
	return s.Result(), nil
}
