package mcp

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// The resources' URI forms.
const (
	sessionPrefix  = "ferry://session/"
	artifactPrefix = "ferry://artifact/"
)

func sessionURI(id string) string   { return sessionPrefix + id }
func artifactURI(sha string) string { return artifactPrefix + sha }

// ArtifactInfo is what ferry://artifact/{sha256} holds: a verified zip's
// file list and provenance, never its bytes.
type ArtifactInfo struct {
	SHA256          string     `json:"sha256"`
	Name            string     `json:"name"`
	Path            string     `json:"path"`
	Size            int64      `json:"size"`
	Verdict         string     `json:"verdict"`
	Session         string     `json:"session"`
	Site            string     `json:"site"`
	ConversationURL string     `json:"conversationUrl,omitempty"`
	MessageID       string     `json:"messageId,omitempty"`
	Created         string     `json:"created"`
	Files           []ZipEntry `json:"files"`
}

// ZipEntry is one entry of a zip.
type ZipEntry struct {
	Name string `json:"name"`
	Size uint64 `json:"size"`
	Dir  bool   `json:"dir,omitempty"`
}

func (s *Server) addResources() {
	s.sdk.AddResourceTemplate(&mcpsdk.ResourceTemplate{Name: "session", Title: "A run's transcript",
		URITemplate: sessionPrefix + "{id}", MIMEType: "text/markdown",
		Description: "A run of this agent as Markdown (prompt, answer, model proof, journal), secrets redacted."}, s.readSession)
	s.sdk.AddResourceTemplate(&mcpsdk.ResourceTemplate{Name: "artifact", Title: "A verified zip or image",
		URITemplate: artifactPrefix + "{sha256}",
		Description: "A verified file of this agent's runs: a zip's file list and provenance (site, conversation, run) as JSON, not its bytes; a generated image's bytes."}, s.readArtifact)
}

func (s *Server) readSession(ctx context.Context, req *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id := strings.TrimPrefix(uri, sessionPrefix)
	caller, _, err := s.caller(ctx, req.Session)
	if err != nil {
		return nil, resourceError(err)
	}
	md, err := s.svc.ExportSession(ctx, caller, service.ExportRequest{ID: id, Format: service.FormatMarkdown})
	if err != nil {
		if errs.Has(err, errs.SessionNotFound) || errs.Has(err, errs.HubNotFound) {
			return nil, mcpsdk.ResourceNotFoundError(uri)
		}
		return nil, resourceError(err)
	}
	return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: md.Body}}}, nil
}

func (s *Server) readArtifact(ctx context.Context, req *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
	uri := req.Params.URI
	sha := strings.ToLower(strings.TrimPrefix(uri, artifactPrefix))
	caller, _, err := s.caller(ctx, req.Session)
	if err != nil {
		return nil, resourceError(err)
	}
	info, img, ok, err := s.findArtifact(ctx, caller, sha)
	if err != nil {
		return nil, resourceError(err)
	}
	if !ok {
		return nil, mcpsdk.ResourceNotFoundError(uri)
	}
	if img != nil {
		return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: img.MIME, Blob: img.Bytes}}}, nil
	}
	body, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode artifact: %w", err)
	}
	return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(body)}}}, nil
}

// imageBytes is a verified image's type and bytes.
type imageBytes struct {
	MIME  string
	Bytes []byte
}

// MaxImageResource is the largest image ferry://artifact/ serves.
const MaxImageResource = 64 << 20

// findArtifact finds the verified artifact of digest sha among the runs
// the caller may see: a zip's file list read from the zip on disk, or an
// image's bytes, checking that the bytes still have that digest.
func (s *Server) findArtifact(ctx context.Context, caller service.Caller, sha string) (ArtifactInfo, *imageBytes, bool, error) {
	list, err := s.svc.ListSessions(ctx, caller, service.SessionQuery{Limit: service.MaxListLimit})
	if err != nil {
		return ArtifactInfo{}, nil, false, err
	}
	for _, ss := range list {
		if ss.Extra == nil || ss.Extra.Listed.Session == nil {
			continue
		}
		run := ss.Extra.Listed.Session
		for _, a := range run.Artifacts {
			if a.SHA256 != sha || a.Verdict != "verified" || a.Path == "" {
				continue
			}
			if a.Kind == record.ArtifactImage {
				b, ok := readDigest(a.Path, sha, MaxImageResource)
				if !ok {
					return ArtifactInfo{}, nil, false, errs.New(errs.ArtifactCorrupt, "the image at %s is gone or changed since it was saved", a.Path)
				}
				return ArtifactInfo{}, &imageBytes{MIME: a.MIME, Bytes: b}, true, nil
			}
			files, err := zipEntries(a.Path, sha)
			if err != nil {
				return ArtifactInfo{}, nil, false, err
			}
			return ArtifactInfo{SHA256: sha, Name: a.Name, Path: a.Path, Size: a.Bytes, Verdict: a.Verdict, Session: run.ID,
				Site: run.Site, ConversationURL: run.ConversationURL, MessageID: run.MessageID,
				Created: run.Created.UTC().Format("2006-01-02T15:04:05Z"), Files: files}, nil, true, nil
		}
	}
	return ArtifactInfo{}, nil, false, nil
}

// zipEntries lists the zip at path after checking its digest. Errors:
// errs.ArtifactCorrupt when the bytes changed or do not open as a zip.
func zipEntries(path, sha string) ([]ZipEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open zip: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, fmt.Errorf("read zip: %w", err)
	}
	if hex.EncodeToString(h.Sum(nil)) != sha {
		return nil, errs.New(errs.ArtifactCorrupt, "the zip at %s changed since it was verified", path)
	}
	zr, err := zip.NewReader(f, n)
	if err != nil {
		return nil, errs.Wrap(err, errs.ArtifactCorrupt, "open zip %s: %v", path, err)
	}
	out := make([]ZipEntry, 0, len(zr.File))
	for _, e := range zr.File {
		out = append(out, ZipEntry{Name: e.Name, Size: e.UncompressedSize64, Dir: e.FileInfo().IsDir()})
	}
	return out, nil
}

// resourceError is err as the JSON-RPC error of a resource read (a read has
// no isError result): the envelope in words, its hint in an agent's words,
// as the message and the envelope as the error's data.
func resourceError(err error) error {
	e := forAgent(errs.From(err))
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: envelopeText(e), Data: e.JSON()}
}
