package artifact

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // the formats CheckImage decodes
	_ "image/jpeg"
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/safetext"
)

// GeneratedImage is one image a site generated in a turn, as the site's
// record of the conversation names it.
type GeneratedImage struct {
	// FileID is the site's id of the file ("file_…"), what its download is
	// asked for by.
	FileID string `json:"fileId"`
	// MessageID is the message that holds the image.
	MessageID string `json:"messageId,omitempty"`
	// Title is the site's title of the image, when it gave one.
	Title string `json:"title,omitempty"`
	// Width, Height and Bytes are what the record claims; the saved file is
	// checked for its own.
	Width  int   `json:"width,omitempty"`
	Height int   `json:"height,omitempty"`
	Bytes  int64 `json:"bytes,omitempty"`
}

// ImageTurn is what a site's record says one turn generated.
type ImageTurn struct {
	Images []GeneratedImage
	// Called says the site's image tool ran in the turn; with no image,
	// Refusal holds what the tool or the answer said instead.
	Called  bool
	Refusal string
}

// ImageSource is the optional capability of an adapter whose site
// generates images in a turn (ChatGPT's image tool). Every request runs in
// the adapter's tab; a signed download address never leaves FetchImage.
type ImageSource interface {
	// TurnImages reads conversation conversationID and lists the images of
	// the turn whose answer is message messageID ("" for the current one).
	TurnImages(ctx context.Context, conversationID, messageID string) (*ImageTurn, error)
	// FetchImage streams img's bytes into w, at most limit bytes. Errors are
	// envelopes: ArtifactExpired for a download that lapsed, the fetch's
	// ArtifactForbidden, ArtifactFetchFailed, ArtifactTooLarge.
	FetchImage(ctx context.Context, img GeneratedImage, w io.Writer, limit int64) (FetchInfo, error)
	// ConversationAddress is the address of conversation conversationID.
	ConversationAddress(conversationID string) string
}

// ImageInfo is what the bytes of an image are.
type ImageInfo struct {
	Format string `json:"format"` // png, jpeg, gif, webp
	MIME   string `json:"mime"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// MaxImagePixels bounds the images CheckImage decodes (16 megapixels, a
// 4096×4096 image; the sites make 1–2 megapixel ones): decoding holds the
// whole image in memory.
const MaxImagePixels = 16 << 20

// CheckImage tells what image the size bytes of r are, by their magic bytes
// and their header, and proves them whole: PNG, JPEG and GIF decode to the
// end (after the header's size was checked against MaxImagePixels), a WebP's
// RIFF length is the file's. Errors: ArtifactCorrupt for bytes that are no
// image (an HTML page included) or a damaged or cut one, ArtifactTooLarge
// for more pixels than MaxImagePixels.
func CheckImage(r io.ReaderAt, size int64) (ImageInfo, error) {
	head := make([]byte, 32)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	var info ImageInfo
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		info = ImageInfo{Format: "png", MIME: "image/png"}
	case bytes.HasPrefix(head, []byte{0xff, 0xd8, 0xff}):
		info = ImageInfo{Format: "jpeg", MIME: "image/jpeg"}
	case bytes.HasPrefix(head, []byte("GIF87a")) || bytes.HasPrefix(head, []byte("GIF89a")):
		info = ImageInfo{Format: "gif", MIME: "image/gif"}
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		info = ImageInfo{Format: "webp", MIME: "image/webp"}
		w, h, err := webpSize(r, size)
		if err != nil {
			return info, err
		}
		info.Width, info.Height = w, h
		return info, checkPixels(info)
	default:
		what := "unknown bytes"
		if t := bytes.TrimLeft(head, " \t\r\n\ufeff"); bytes.HasPrefix(t, []byte("<")) {
			what = "an HTML or XML page"
		} else if bytes.HasPrefix(t, []byte("{")) {
			what = "JSON"
		}
		return info, errs.New(errs.ArtifactCorrupt, "the file is not an image but %s (it starts with %q)", what, safetext.Line(string(head[:min(len(head), 16)]))).
			WithEvidence("reason", "not_image")
	}
	cfg, _, err := image.DecodeConfig(io.NewSectionReader(r, 0, size))
	if err != nil {
		return info, errs.Wrap(err, errs.ArtifactCorrupt, "the %s image's header is damaged: %v", info.Format, err).WithEvidence("reason", "bad_header")
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	if err := checkPixels(info); err != nil {
		return info, err
	}
	if _, _, err := image.Decode(io.NewSectionReader(r, 0, size)); err != nil {
		return info, errs.Wrap(err, errs.ArtifactCorrupt, "the %s image is damaged or cut short: %v", info.Format, err).WithEvidence("reason", "truncated")
	}
	return info, nil
}

func checkPixels(info ImageInfo) error {
	if info.Width <= 0 || info.Height <= 0 {
		return errs.New(errs.ArtifactCorrupt, "the %s image says it is %d×%d pixels", info.Format, info.Width, info.Height).WithEvidence("reason", "bad_header")
	}
	if int64(info.Width)*int64(info.Height) > MaxImagePixels {
		return errs.New(errs.ArtifactTooLarge, "the %s image is %d×%d pixels, over the %d megapixels Ferry opens", info.Format, info.Width, info.Height, MaxImagePixels>>20).
			WithEvidence("reason", "too_large")
	}
	return nil
}

// webpSize reads a WebP's canvas size from its first chunk (VP8, VP8L or
// VP8X) after checking that the RIFF length covers exactly the file.
func webpSize(r io.ReaderAt, size int64) (int, int, error) {
	b := make([]byte, 30)
	n, _ := r.ReadAt(b, 0)
	need := map[string]int{"VP8 ": 30, "VP8L": 25, "VP8X": 30}[string(b[12:16])]
	if n < max(need, 16) {
		return 0, 0, errs.New(errs.ArtifactCorrupt, "the webp image is cut short (%d bytes)", size).WithEvidence("reason", "truncated")
	}
	if riff := int64(binary.LittleEndian.Uint32(b[4:8])) + 8; riff != size && riff+1 != size {
		return 0, 0, errs.New(errs.ArtifactCorrupt, "the webp image's RIFF length says %d bytes, the file has %d", riff, size).WithEvidence("reason", "truncated")
	}
	switch string(b[12:16]) {
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			break
		}
		return int(binary.LittleEndian.Uint16(b[26:28]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:30]) & 0x3fff), nil
	case "VP8L":
		if b[20] != 0x2f {
			break
		}
		v := binary.LittleEndian.Uint32(b[21:25])
		return int(v&0x3fff) + 1, int(v>>14&0x3fff) + 1, nil
	case "VP8X":
		le24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
		return le24(b[24:27]) + 1, le24(b[27:30]) + 1, nil
	}
	return 0, 0, errs.New(errs.ArtifactCorrupt, "the webp image's first chunk (%q) is not one Ferry reads", string(b[12:16])).WithEvidence("reason", "bad_header")
}

// ImageProvenance is the sidecar written beside every saved image: where it
// came from and what its bytes are. It never holds a token, a cookie or a
// signed download address.
type ImageProvenance struct {
	Kind            string `json:"kind"` // "image"
	Site            string `json:"site"`
	Session         string `json:"session,omitempty"`
	ConversationURL string `json:"conversationUrl"`
	ConversationID  string `json:"conversationId,omitempty"`
	MessageID       string `json:"messageId,omitempty"`
	FileID          string `json:"fileId,omitempty"`
	Title           string `json:"title,omitempty"`
	// PromptSHA256 is the digest of the prompt that asked for the image
	// (the prompt itself stays in the run's record).
	PromptSHA256 string `json:"promptSha256,omitempty"`
	FileName     string `json:"fileName"`
	ImageInfo
	Size         int64     `json:"size"`
	SHA256       string    `json:"sha256"`
	SavedAt      time.Time `json:"savedAt"`
	FerryVersion string    `json:"ferryVersion"`
}

// SaveImage copies an image from src (at most limit bytes; 0 is no limit)
// into a temporary file in dir, syncs it, proves it with CheckImage, and
// links it to its final name (the sanitised base of name with the
// extension of its real format; "-1", "-2"… for a name taken) beside its
// sidecar `<name>.provenance.json`, then syncs dir. Bytes that are not a
// whole image are deleted, never kept. Errors: CheckImage's, ArtifactTooLarge
// over limit, ArtifactSaveFailed (DiskFull) for I/O, ctx's error.
func SaveImage(ctx context.Context, dir, name string, src io.Reader, limit int64, prov ImageProvenance, opts ...SaveOption) (*ImageProvenance, string, error) {
	cfg := saveConfigOf(opts)
	tmp, release, err := newTemp(dir, ".ferry-*.img.part")
	if err != nil {
		return nil, "", err
	}
	tmpPath := tmp.Name()
	defer release()
	defer os.Remove(tmpPath)
	defer tmp.Close()

	h := sha256.New()
	in := io.Reader(ctxReader{ctx, src})
	if limit > 0 {
		in = io.LimitReader(in, limit+1)
	}
	size, err := io.Copy(io.MultiWriter(tmp, h), in)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, "", saveErr(err, "write %s", tmpPath)
	}
	if limit > 0 && size > limit {
		return nil, "", TooLargeError(limit)
	}
	if err := tmp.Sync(); err != nil {
		return nil, "", saveErr(err, "sync %s", tmpPath)
	}
	info, err := CheckImage(tmp, size)
	if err != nil {
		return nil, "", err
	}
	if err := tmp.Close(); err != nil {
		return nil, "", saveErr(err, "close %s", tmpPath)
	}
	prov.Kind, prov.ImageInfo = "image", info
	prov.ConversationURL = StripURLSecrets(prov.ConversationURL)
	prov.Size, prov.SHA256 = size, hex.EncodeToString(h.Sum(nil))
	prov.SavedAt, prov.FerryVersion = cfg.now().UTC(), cfg.version
	final, err := placeWithSidecar(tmpPath, dir, SafeImageName(name, info.Format), func(fileName string) any {
		prov.FileName = fileName
		return prov
	})
	if err != nil {
		return nil, "", err
	}
	return &prov, final, nil
}

// SafeImageName is the file name an image is saved under: the base of name
// with every character outside [A-Za-z0-9._+-] replaced by "_", its
// extension replaced by format's (jpeg as .jpg), at most 150 bytes;
// "image" when nothing is left.
func SafeImageName(name, format string) string {
	stem := strings.TrimSuffix(SafeFileName(name), ".zip")
	if ext := filepath.Ext(stem); ext != "" && len(ext) <= 5 {
		stem = strings.TrimSuffix(stem, ext)
	}
	if strings.Trim(stem, "_.") == "" || stem == "artifact" {
		stem = "image"
	}
	ext := "." + format
	if format == "jpeg" {
		ext = ".jpg"
	}
	return fmt.Sprint(stem, ext)
}

// FindSavedImage finds in dir the image run session saved from the site's
// file fileID: a sidecar of kind image naming both, beside a file whose
// bytes still hash to its sha256. It returns the sidecar and the image's
// path; ok is false when there is none (or dir cannot be read).
func FindSavedImage(dir, session, fileID string) (*ImageProvenance, string, bool) {
	if session == "" || fileID == "" {
		return nil, "", false
	}
	var p ImageProvenance
	path, ok := findSaved(dir, fileID, func(b []byte) (string, bool) {
		p = ImageProvenance{}
		ok := json.Unmarshal(b, &p) == nil && p.Kind == "image" && p.Session == session && p.FileID == fileID
		return p.SHA256, ok
	})
	if !ok {
		return nil, "", false
	}
	return &p, path, true
}

// findSaved is the first file in dir whose sidecar holds needle and is
// the one wanted (match says so and gives the file's sha256), and whose
// bytes still have that digest.
func findSaved(dir, needle string, match func(sidecar []byte) (sha string, ok bool)) (string, bool) {
	sides, _ := filepath.Glob(filepath.Join(dir, "*"+SidecarSuffix))
	for _, side := range sides {
		b, err := os.ReadFile(side)
		if err != nil || !bytes.Contains(b, []byte(needle)) {
			continue
		}
		sha, ok := match(b)
		if !ok {
			continue
		}
		path := strings.TrimSuffix(side, SidecarSuffix)
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err == nil && hex.EncodeToString(h.Sum(nil)) == sha {
			return path, true
		}
	}
	return "", false
}
