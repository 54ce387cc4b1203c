package service

import "time"

// The verdicts of an artifact of the library, as ArtifactItem.Status.
const (
	ArtifactVerified    = "verified"
	ArtifactQuarantined = "quarantined"
	ArtifactUnverified  = "unverified"
)

// ArtifactSidecarSuffix names a zip's provenance sidecar: the zip's path
// with this appended (the artifact package's SidecarSuffix).
const ArtifactSidecarSuffix = ".provenance.json"

// ListArtifactsRequest lists the artifacts library.
type ListArtifactsRequest struct{}

// Validate accepts every request.
func (ListArtifactsRequest) Validate() error { return nil }

// ArtifactList is the library and the directory it lives in.
type ArtifactList struct {
	Dir   string         `json:"dir"`
	Items []ArtifactItem `json:"items"`
}

// ArtifactItem is one zip of the library with its verdict checked against
// the bytes on disk (it mirrors the artifact package's library item).
type ArtifactItem struct {
	// Path is the zip's absolute path (what a drag-out hands the desktop).
	Path string `json:"path"`
	Name string `json:"name"`
	// Size is the size on disk now; SHA256 is the digest of those bytes.
	Size     int64     `json:"size"`
	SHA256   string    `json:"sha256"`
	Modified time.Time `json:"modified"`
	Status   string    `json:"status"`
	// Reason is the reason code, Why the sentence; empty when verified.
	Reason string `json:"reason,omitempty"`
	Why    string `json:"why,omitempty"`
	Site   string `json:"site,omitempty"`
	// Session is the id of the run that brought the zip home; Run tells
	// that run's story when the history still holds it.
	Session         string            `json:"session,omitempty"`
	ConversationURL string            `json:"conversationUrl,omitempty"`
	VerifiedAt      time.Time         `json:"verifiedAt,omitzero"`
	Files           []ArtifactEntry   `json:"files"`
	Problems        []ArtifactProblem `json:"problems,omitempty"`
	Run             *ArtifactRun      `json:"run,omitempty"`
}

// ArtifactRun is the run an artifact came from, as the library shows it.
type ArtifactRun struct {
	ID string `json:"id"`
	// Prompt is the opening of the user's own words (for a code-mode run,
	// the task, without the wrapper Ferry composed around it).
	Prompt  string    `json:"prompt"`
	Created time.Time `json:"created"`
	State   string    `json:"state"`
}

// ArtifactEntry is one entry of a zip.
type ArtifactEntry struct {
	Name           string `json:"name"`
	Size           uint64 `json:"size"`
	CompressedSize uint64 `json:"compressedSize"`
	CRC32          uint32 `json:"crc32"`
	Mode           uint32 `json:"mode"`
	Method         uint16 `json:"method"`
	Dir            bool   `json:"dir,omitempty"`
}

// ArtifactProblem is one finding of the verifier about a zip.
type ArtifactProblem struct {
	Reason   string `json:"reason"`
	Entry    string `json:"entry,omitempty"`
	Detail   string `json:"detail"`
	Blocking bool   `json:"blocking"`
}
