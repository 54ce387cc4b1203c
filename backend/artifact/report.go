package artifact

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"time"
)

// Report is a long run's written report (a deep research's): its
// Markdown, its Title (its first heading, else the prompt's words), the
// site's Header line over it ("Research completed in 12m · 19 citations ·
// 328 searches") with its counts, and the most Sources the research said
// it read.
type Report struct {
	Markdown, Title, Header      string
	Citations, Searches, Sources int
}

// ReportSource is an adapter whose turns deliver reports: TurnReport is
// the last waited turn's. Errors: ResearchNotStarted (the site answered
// without doing the work), DeliverableMissing (the report was not read).
type ReportSource interface {
	TurnReport() (*Report, error)
}

// ReportAnswerSource is a run's answer source when its answer is the
// report a ReportSource read (record.Run.AnswerSource).
const ReportAnswerSource = "research_frame"

// ReportProvenance is the sidecar of a saved report.
type ReportProvenance struct {
	Kind            string    `json:"kind"` // "report"
	Site            string    `json:"site"`
	Session         string    `json:"session"`
	ConversationID  string    `json:"conversationId,omitempty"`
	ConversationURL string    `json:"conversationUrl,omitempty"`
	MessageID       string    `json:"messageId,omitempty"`
	PromptSHA256    string    `json:"promptSha256"`
	Title           string    `json:"title"`
	Header          string    `json:"header,omitempty"`
	Citations       int       `json:"citations"`
	Searches        int       `json:"searches"`
	Sources         int       `json:"sources"`
	SentAt          time.Time `json:"sentAt,omitzero"`
	CompletedAt     time.Time `json:"completedAt,omitzero"`
	FileName        string    `json:"fileName"`
	SHA256          string    `json:"sha256"`
	Size            int64     `json:"size"`
	SavedAt         time.Time `json:"savedAt"`
	FerryVersion    string    `json:"ferryVersion"`
}

// SaveReport writes r's Markdown into dir as <title>.md (a free name:
// an existing file is never replaced), through a synced temporary file
// linked into place, then its provenance sidecar; a report without its
// sidecar is removed. Errors: ArtifactSaveFailed (disk full, permissions),
// ctx's error.
func SaveReport(ctx context.Context, dir string, r *Report, prov ReportProvenance, opts ...SaveOption) (*ReportProvenance, string, error) {
	cfg := saveConfigOf(opts)
	tmp, release, err := newTemp(dir, ".ferry-*.md.part")
	if err != nil {
		return nil, "", err
	}
	tmpPath := tmp.Name()
	defer release()
	defer os.Remove(tmpPath)
	defer tmp.Close()
	body := []byte(r.Markdown)
	if _, err := tmp.Write(body); err != nil {
		return nil, "", saveErr(err, "write %s", tmpPath)
	}
	if err := errors.Join(tmp.Sync(), tmp.Close()); err != nil {
		return nil, "", saveErr(err, "sync %s", tmpPath)
	}
	sum := sha256.Sum256(body)
	prov.Kind, prov.Title, prov.Header = "report", r.Title, r.Header
	prov.Citations, prov.Searches, prov.Sources = r.Citations, r.Searches, r.Sources
	prov.ConversationURL = StripURLSecrets(prov.ConversationURL)
	prov.Size, prov.SHA256 = int64(len(body)), hex.EncodeToString(sum[:])
	prov.SavedAt, prov.FerryVersion = cfg.now().UTC(), cfg.version
	final, err := placeWithSidecar(tmpPath, dir, SafeReportName(r.Title), func(fileName string) any {
		prov.FileName = fileName
		return prov
	})
	if err != nil {
		return nil, "", err
	}
	return &prov, final, nil
}

// FindSavedReport is the report run session saved in dir, when its
// sidecar names it and its bytes are still the ones saved: what a reattach
// records instead of saving the report twice.
func FindSavedReport(dir, session string) (*ReportProvenance, string, bool) {
	if session == "" {
		return nil, "", false
	}
	var p ReportProvenance
	path, ok := findSaved(dir, session, func(b []byte) (string, bool) {
		p = ReportProvenance{}
		ok := json.Unmarshal(b, &p) == nil && p.Kind == "report" && p.Session == session
		return p.SHA256, ok
	})
	if !ok {
		return nil, "", false
	}
	return &p, path, true
}

// SafeReportName is title's report file name: a safe stem of ≤ 80 runes, ".md".
func SafeReportName(title string) string {
	stem := strings.TrimSuffix(SafeFileName(strings.NewReplacer("/", " ", `\`, " ").Replace(title)), ".zip")
	r := []rune(stem)
	if stem = strings.Trim(string(r[:min(80, len(r))]), " ._-"); stem == "artifact" {
		stem = ""
	}
	return cmp.Or(stem, "report") + ".md"
}
