package job

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Export formats.
const (
	FormatMarkdown = "md"
	FormatJSON     = "json"
)

// Export renders the redacted session (and its journal) as Markdown or
// JSON. Errors: errs.BadInput for another format.
func Export(s *Session, journal []Entry, format string) ([]byte, error) {
	r := s.Redacted()
	switch format {
	case FormatJSON:
		b, err := json.MarshalIndent(struct {
			Session *Session `json:"session"`
			Journal []Entry  `json:"journal"`
		}{r, journal}, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encode session %s: %w", s.ID, err)
		}
		return append(b, '\n'), nil
	case FormatMarkdown:
		return markdown(r, journal), nil
	}
	return nil, errs.New(errs.BadInput, "unknown export format %q", format).WithHint("use --format md or --format json")
}

func markdown(s *Session, journal []Entry) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Ferry session %s\n\n", s.ID)
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "- **%s:** %s\n", k, v)
		}
	}
	row("Site", s.Site)
	row("State", string(s.State))
	row("Model requested", s.ModelRequested)
	if s.Model.Slug != "" {
		row("Model", fmt.Sprintf("%s (from %s, verified %t)", s.Model.Slug, s.Model.Source, s.Model.Verified))
	}
	row("Conversation", s.ConversationURL)
	row("Created", s.Created.Format(time.RFC3339))
	row("Updated", s.Updated.Format(time.RFC3339))
	row("Origin", string(s.Origin))
	row("Template", s.Template)
	row("Contract", s.Contract)
	if s.Content != nil {
		row("Answer sha256", s.Content.SHA256)
	}
	fmt.Fprintf(&b, "\n## Prompt\n\n%s\n", fence(s.Prompt))
	if s.Answer != "" {
		fmt.Fprintf(&b, "\n## Answer\n\n%s\n", strings.TrimRight(s.Answer, "\n"))
	}
	if s.Error != nil {
		fmt.Fprintf(&b, "\n## Error\n\n`%s` (%s): %s\n", s.Error.Code, s.Error.Stage, s.Error.Message)
	}
	if len(s.Warnings) > 0 {
		b.WriteString("\n## Warnings\n\n")
		for _, w := range s.Warnings {
			fmt.Fprintf(&b, "- %s\n", w)
		}
	}
	if len(s.Artifacts) > 0 {
		b.WriteString("\n## Artifacts\n\n| name | bytes | sha256 | verdict |\n|---|---|---|---|\n")
		for _, a := range s.Artifacts {
			fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", a.Name, a.Bytes, a.SHA256, a.Verdict)
		}
	}
	if len(journal) > 0 {
		b.WriteString("\n## Journal\n\n")
		for _, e := range journal {
			fmt.Fprintf(&b, "%d. %s `%s`", e.Seq, e.At.Format(time.RFC3339Nano), e.State)
			if e.Note != "" {
				fmt.Fprintf(&b, " — %s", e.Note)
			}
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// fence wraps text in a code fence longer than any backtick run inside it.
func fence(text string) string {
	n, run := 3, 0
	for _, r := range text {
		if r == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + "text\n" + strings.TrimRight(text, "\n") + "\n" + f
}
