package gemini

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// Generated images, from providers.md ("Tools", Image generation): Gemini
// names a turn's images at candidate [12][7][0][*][0][3][3] of
// StreamGenerate, as https://lh3.googleusercontent.com/gg-dl/… addresses;
// "=s2048" asks for the full size. Ferry takes them from the turn's
// stream (stream.Result.Images) and fetches each in the tab.

// imageHost is where Gemini's generated images are served.
const imageHost = "lh3.googleusercontent.com"

// imageSize is the suffix that asks for the full-size image.
const imageSize = "=s2048"

// turnImages is the images of the turn the adapter last extracted.
type turnImages struct {
	conv string
	urls []string
}

// keepImages remembers the images the stream of turn t named.
func (a *Adapter) keepImages(t *provider.Turn, conv string) {
	res, _ := t.Stream()
	a.images = turnImages{conv: conv, urls: res.Images}
}

// TurnImages implements artifact.ImageSource: the images the stream of the
// turn this adapter extracted named (a turn collected from the page alone,
// by a reattach, names none to Ferry). An address that is not one of
// Gemini's image host is left out.
func (a *Adapter) TurnImages(_ context.Context, conversationID, messageID string) (*artifact.ImageTurn, error) {
	out := &artifact.ImageTurn{}
	if a.images.conv != conversationID {
		return out, nil
	}
	for _, u := range a.images.urls {
		if id, ok := imageID(u); ok {
			out.Images = append(out.Images, artifact.GeneratedImage{FileID: id, MessageID: messageID})
		}
	}
	return out, nil
}

// imageID is the file id Ferry gives a generated image's address (its
// gg-dl token, which names it), and whether the address is one of
// Gemini's: https on imageHost, path /gg-dl/<token>.
func imageID(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host != imageHost || u.User != nil || !strings.HasPrefix(u.Path, "/gg-dl/") {
		return "", false
	}
	tok := strings.TrimPrefix(u.Path, "/gg-dl/")
	if tok == "" || strings.ContainsAny(tok, "/=") {
		return "", false
	}
	return tok, true
}

// FetchImage implements artifact.ImageSource: the full-size image (its
// address with "=s2048") fetched in the tab, streamed over the DevTools
// connection, at most limit bytes. Errors: BadInput for an id that is not
// a gg-dl token; the fetch's (ArtifactForbidden for 403, ArtifactExpired for
// 404 and 410, ArtifactFetchFailed, ArtifactTooLarge).
func (a *Adapter) FetchImage(ctx context.Context, img artifact.GeneratedImage, w io.Writer, limit int64) (artifact.FetchInfo, error) {
	var info artifact.FetchInfo
	addr := "https://" + imageHost + "/gg-dl/" + img.FileID
	if _, ok := imageID(addr); !ok {
		return info, errs.New(errs.BadInput, "%q is not a Gemini image", img.FileID)
	}
	body, meta, err := fetch.Bytes(ctx, a.Page, addr+imageSize, fetch.BytesOptions{Way: fetch.WayStream, MaxBytes: limit,
		Options: fetch.Options{Headers: map[string]string{"accept": "image/*"}}})
	if err != nil {
		return info, errs.Wrap(err, errs.ArtifactFetchFailed, "fetch the image: %v", errs.CodeOf(err)).WithEvidence("file", shortID(img.FileID))
	}
	defer body.Close()
	info.ContentType = meta.Headers["content-type"]
	if err := artifact.DownloadStatusError(meta.Status); err != nil {
		return info, errs.From(err).WithEvidence("file", shortID(img.FileID))
	}
	src := io.Reader(body)
	if limit > 0 {
		src = io.LimitReader(body, limit+1)
	}
	n, err := io.Copy(w, src)
	info.Bytes = n
	switch {
	case err != nil && ctx.Err() != nil:
		return info, ctx.Err()
	case err != nil:
		return info, errs.Wrap(err, errs.ArtifactFetchFailed, "read the image from the page: %v", err)
	case limit > 0 && n > limit:
		return info, artifact.TooLargeError(limit)
	}
	return info, nil
}

// shortID names an image in evidence without its whole token.
func shortID(id string) string {
	sum := sha256.Sum256([]byte(id))
	return "gg-dl:" + hex.EncodeToString(sum[:6])
}

// ConversationAddress implements artifact.ImageSource: /app/<hex> for
// conversation c_<hex>.
func (a *Adapter) ConversationAddress(conversationID string) string {
	return "https://gemini.google.com/app/" + strings.TrimPrefix(conversationID, "c_")
}

var _ artifact.ImageSource = (*Adapter)(nil)
