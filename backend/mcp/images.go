package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// Image is one image a job's turn generated, as Ferry saved it.
type Image struct {
	Path     string `json:"path,omitempty" jsonschema:"where the image was saved"`
	SHA256   string `json:"sha256,omitempty"`
	MIME     string `json:"mime,omitempty" jsonschema:"the image's type, as its bytes prove it"`
	Width    int    `json:"width,omitempty"`
	Height   int    `json:"height,omitempty"`
	Size     int64  `json:"size,omitempty"`
	Verdict  string `json:"verdict" jsonschema:"verified (its bytes are a whole image of that type) or rejected"`
	Resource string `json:"resource,omitempty" jsonschema:"the ferry://artifact/{sha256} resource with the image's bytes"`
	Error    string `json:"error,omitempty"`
}

// MaxImageContent is the largest image a tool result carries as image
// content; a larger one is only named (its path and resource).
const MaxImageContent = 4 << 20

// imagesOfRun is the images a run recorded.
func imagesOfRun(run *service.Run) []Image {
	var out []Image
	for _, a := range run.Artifacts {
		if a.Kind != record.ArtifactImage {
			continue
		}
		v := Image{Path: a.Path, SHA256: a.SHA256, MIME: a.MIME, Width: a.Width, Height: a.Height, Size: a.Bytes, Verdict: a.Verdict, Error: a.Reason}
		if a.Verdict == "verified" && a.SHA256 != "" {
			v.Resource = artifactURI(a.SHA256)
		}
		out = append(out, v)
	}
	return out
}

// content is what a finished job's result carries beside its text: each
// verified image as image content (when it is at most MaxImageContent and
// its bytes on disk still have its digest) and a link to its resource.
func (r JobResult) content() []mcpsdk.Content {
	if !r.Done {
		return nil
	}
	var out []mcpsdk.Content
	for _, img := range r.Images {
		if img.Resource == "" {
			continue
		}
		if b, ok := readDigest(img.Path, img.SHA256, MaxImageContent); ok {
			out = append(out, &mcpsdk.ImageContent{Data: b, MIMEType: img.MIME})
		}
		size := img.Size
		out = append(out, &mcpsdk.ResourceLink{URI: img.Resource, Name: img.SHA256, Title: "Generated image", MIMEType: img.MIME, Size: &size})
	}
	return out
}

// readDigest reads the file at path when it holds at most limit bytes with
// digest sha; ok is false otherwise.
func readDigest(path, sha string, limit int64) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(b)) > limit {
		return nil, false
	}
	sum := sha256.Sum256(b)
	return b, hex.EncodeToString(sum[:]) == sha
}
