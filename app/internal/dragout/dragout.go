// Package dragout is how a verified file (a zip or a generated image)
// leaves the window by drag: the Source the page writes at dragstart (a
// text/uri-list for WebKitGTK, a DownloadURL for WebView2) and, on Windows,
// the loopback server that DownloadURL names, which serves verified files
// only. System picks the platform's.
package dragout

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Drag-out of a verified file: the page fills the drag's data at
// dragstart, synchronously, so it must know beforehand what to write.
// WebKitGTK hands a text/uri-list of file:// URLs to the file manager;
// WebView2 (Chromium on Windows) takes Chromium's DownloadURL type instead
// ("application/zip:name.zip:http://…", "image/png:name.png:http://…"),
// registers a file whose bytes it fetches from that URL when the drop lands
// in Explorer, and fetches it with its own network stack: a page on
// https://wails.localhost may not name a file:// URL, so the file is served
// on loopback (dragServer).

// Drag kinds the page knows.
const (
	dragURIList     = "uri-list"
	dragDownloadURL = "download-url"
)

// Source says how the page hands a verified file to the desktop on a
// drag-out.
type Source struct {
	// Kind is "uri-list" (text/uri-list with the file's URL) or
	// "download-url" (Chromium's DownloadURL with Base).
	Kind string `json:"kind"`
	// Base is, for download-url, the URL a file's name and its path (as
	// the query's path) are appended to: http://127.0.0.1:PORT/drag/TOKEN/.
	Base string `json:"base,omitempty"`
}

// Drag is how a verified file leaves the window by drag.
type Drag interface {
	// Source is what the page writes on a drag; it may start what serves
	// the files. Errors: internal when that cannot start.
	Source() (Source, error)
}

// uriListDrag is Drag where the webview hands file URLs to the desktop.
type uriListDrag struct{}

func (uriListDrag) Source() (Source, error) { return Source{Kind: dragURIList}, nil }

// dragServer is Drag through loopback HTTP: it serves, to whoever holds
// its random token, the verified files find accepts (the app's
// Artifacts.DragPath), and nothing else.
type dragServer struct {
	find func(path string) (string, error)

	once  sync.Once
	token string
	base  string
	err   error
}

func (d *dragServer) Source() (Source, error) {
	d.once.Do(d.start)
	if d.err != nil {
		return Source{Kind: dragURIList}, d.err
	}
	return Source{Kind: dragDownloadURL, Base: d.base}, nil
}

// start listens on a loopback port for the life of the process.
func (d *dragServer) start() {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		d.err = errs.Wrap(err, errs.Internal, "make the drag-out token: %v", err)
		return
	}
	d.token = hex.EncodeToString(b)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		d.err = errs.Wrap(err, errs.Internal, "listen for drag-outs on loopback: %v", err).
			WithHint("use Show in folder and drag the file from Explorer")
		return
	}
	d.base = "http://" + l.Addr().String() + "/drag/" + d.token + "/"
	go func() { _ = http.Serve(l, d) }()
}

// ServeHTTP answers GET /drag/TOKEN/NAME?path=PATH with the verified file
// at PATH, whose name must be NAME, typed by its extension (contentType);
// anything else is 404, an unverified file 403.
func (d *dragServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/drag/")
	token, name, _ := strings.Cut(rest, "/")
	if !ok || r.Method != http.MethodGet && r.Method != http.MethodHead ||
		subtle.ConstantTimeCompare([]byte(token), []byte(d.token)) != 1 {
		http.NotFound(w, r)
		return
	}
	p, err := d.find(r.URL.Query().Get("path"))
	switch {
	case errs.Has(err, errs.ArtifactUnsafe):
		http.Error(w, "only verified files can be dragged out of Ferry", http.StatusForbidden)
		return
	case err != nil || filepath.Base(p) != name:
		http.NotFound(w, r)
		return
	}
	f, err := os.Open(p)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", contentType(name))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(name))
	w.Header().Set("Cache-Control", "no-store")
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// contentType is the type a file is served as, by its extension: the
// library lists zips and images by theirs (and proves an image's bytes
// whatever its name says).
func contentType(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".zip":
		return "application/zip"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	}
	return "application/octet-stream"
}

var (
	_ Drag = uriListDrag{}
	_ Drag = (*dragServer)(nil)
)
