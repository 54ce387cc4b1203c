package chatgpt

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// Generated images, from providers.md ("Tools", "Image generation"): the
// assistant calls the image tool (image_gen, image_gen.text2im, dalle.text2im),
// whose message holds multimodal_text parts of content_type
// image_asset_pointer (asset_pointer sediment://file_… or
// file-service://file-…, width, height, size_bytes) and metadata
// image_gen_title; the turn's answer may be empty. An image downloads
// through GET /backend-api/files/{id}/download (bearer) → {status,
// download_url, file_name, mime_type, file_size_bytes}, download_url on the
// cookie-bound estuary.

// isImageTool reports whether name (an author's name or a recipient) is
// ChatGPT's image tool.
func isImageTool(name string) bool {
	return strings.HasPrefix(name, "image_gen") || strings.HasPrefix(name, "dalle")
}

// imagePart is the part of an image_asset_pointer Ferry reads.
type imagePart struct {
	ContentType  string `json:"content_type"`
	AssetPointer string `json:"asset_pointer"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	SizeBytes    int64  `json:"size_bytes"`
}

// assetFileID is the file id of an asset pointer (sediment://file_…,
// file-service://file-…), or "" for one Ferry does not know.
func assetFileID(pointer string) string {
	_, id, ok := strings.Cut(pointer, "://")
	if !ok || !fileIDRe.MatchString(id) {
		return ""
	}
	return id
}

// turnImages lists the images of the turn whose answer is message answerID
// ("" or unknown: the current node's turn): every image part of the
// messages after the turn's user message, oldest first. A turn whose image
// tool ran without an image is a refusal, in the answer's words (else the
// tool's).
func (c *conversation) turnImages(answerID string) *artifact.ImageTurn {
	id := answerID
	if _, ok := c.Mapping[id]; !ok {
		id = c.CurrentNode
	}
	out := &artifact.ImageTurn{}
	var answer, toolWords string
	seen := map[string]bool{}
	for ; id != "" && !seen[id]; id = c.Mapping[id].Parent {
		seen[id] = true
		m := c.Mapping[id].Message
		if m == nil {
			continue
		}
		if m.Author.Role == "user" {
			break
		}
		if isImageTool(m.Author.Name) || isImageTool(m.Recipient) {
			out.Called = true
		}
		if m.Author.Role == "assistant" && m.Content.ContentType == "text" && answer == "" {
			answer = m.text()
		}
		title, _ := m.Metadata["image_gen_title"].(string)
		var imgs []artifact.GeneratedImage
		for _, raw := range m.Content.Parts {
			var p imagePart
			if json.Unmarshal(raw, &p) != nil || p.ContentType != "image_asset_pointer" {
				if s := ""; m.Author.Role == "tool" && isImageTool(m.Author.Name) && json.Unmarshal(raw, &s) == nil && s != "" {
					toolWords = s
				}
				continue
			}
			if fid := assetFileID(p.AssetPointer); fid != "" {
				imgs = append(imgs, artifact.GeneratedImage{FileID: fid, MessageID: m.ID, Title: title, Width: p.Width, Height: p.Height, Bytes: p.SizeBytes})
			}
		}
		out.Images = append(imgs, out.Images...)
	}
	if out.Called && len(out.Images) == 0 {
		out.Refusal = strings.TrimSpace(answer)
		if out.Refusal == "" {
			out.Refusal = strings.TrimSpace(toolWords)
		}
	}
	return out
}

// imageAnswer is the answer of a turn that finished without text (empty
// is AnswerEmpty): when the conversation's current answer has images in
// its turn, that answer, empty or not, is the turn's (the run's delivery
// brings the images home); otherwise empty stands.
func (a *Adapter) imageAnswer(ctx context.Context, t *provider.Turn, empty error) (*provider.Answer, error) {
	res, _ := t.Stream()
	id := cmp.Or(res.ConversationID, a.conversationInTab(ctx))
	if id == "" {
		return nil, empty
	}
	c, err := a.conversation(ctx, id)
	if err != nil {
		return nil, empty
	}
	m, ok := c.answer()
	if !ok || (res.MessageID != "" && m.ID != res.MessageID) || len(c.turnImages(m.ID).Images) == 0 {
		return nil, empty
	}
	a.read = readMemory{id: id, conv: c}
	ans := &provider.Answer{Text: m.text(), Source: "conversation_api", ConversationID: id, MessageID: m.ID, CodeBlocks: []provider.CodeBlock{}}
	if slug := m.slug(); slug != "" {
		ans.Model = provider.ModelProof{Slug: slug, Source: "conversation_api:metadata.model_slug"}
	}
	return ans, nil
}

// TurnImages implements artifact.ImageSource: the images of the turn
// answered by messageID in conversation conversationID, from the
// conversation Extract read when it is that one (a finished turn does not
// change), else read anew. Errors: BadInput for an id that is not a ChatGPT
// id, and the conversation read's (RateLimited, GenerationError, the
// session check's).
func (a *Adapter) TurnImages(ctx context.Context, conversationID, messageID string) (*artifact.ImageTurn, error) {
	if !idRe.MatchString(conversationID) {
		return nil, errs.New(errs.BadInput, "conversation id %q is not a ChatGPT id", conversationID)
	}
	c := a.read.conv
	if a.read.id != conversationID || c == nil || messageID == "" || c.Mapping[messageID].Message == nil {
		var err error
		if c, err = a.conversation(ctx, conversationID); err != nil {
			return nil, err
		}
	}
	return c.turnImages(messageID), nil
}

// FetchImage implements artifact.ImageSource through the tab's Fetcher,
// streaming the body over the DevTools connection (fetch.WayStream): for a
// file of a few megabytes the browser's own download costs more in fixed
// time than it saves (BenchmarkImageDownload).
func (a *Adapter) FetchImage(ctx context.Context, img artifact.GeneratedImage, w io.Writer, limit int64) (artifact.FetchInfo, error) {
	return FetchImage(ctx, a.Fetcher(WithWay(fetch.WayStream)), a.origin(), img, w, limit)
}

// FetchImage asks origin's files/{id}/download for img's address through d
// (with the bearer token) and downloads it into w, at most limit bytes.
// Errors: BadInput for a file id that is not ChatGPT's; ArtifactNotFound when
// the site no longer knows the file; the mint's envelopes
// (ParseMintResponse) and the download's (Downloader.Download); ctx's error.
func FetchImage(ctx context.Context, d Downloader, origin string, img artifact.GeneratedImage, w io.Writer, limit int64) (artifact.FetchInfo, error) {
	if !fileIDRe.MatchString(img.FileID) {
		return artifact.FetchInfo{}, errs.New(errs.BadInput, "image file id %q is not a ChatGPT file id", img.FileID)
	}
	status, body, err := d.Mint(ctx, origin+"/backend-api/files/"+img.FileID+"/download")
	if err != nil {
		if ctx.Err() != nil {
			return artifact.FetchInfo{}, ctx.Err()
		}
		return artifact.FetchInfo{}, errs.Wrap(err, errs.ArtifactMintFailed, "ask for the image's download: %v", errs.CodeOf(err))
	}
	if status == 404 {
		return artifact.FetchInfo{}, errs.New(errs.ArtifactNotFound, "ChatGPT no longer holds the image file %s (HTTP 404)", img.FileID).WithEvidence("file", img.FileID)
	}
	minted, err := ParseMintResponse(status, body)
	if err != nil {
		return artifact.FetchInfo{}, errs.From(err).WithEvidence("file", img.FileID)
	}
	info, err := d.Download(ctx, minted.DownloadURL, w, limit)
	if err != nil {
		return info, errs.From(err).WithEvidence("file", img.FileID)
	}
	return info, nil
}

// Interface guard.
var _ artifact.ImageSource = (*Adapter)(nil)

// readMemory is the conversation Extract last read (its id and parse).
type readMemory struct {
	id   string
	conv *conversation
}
