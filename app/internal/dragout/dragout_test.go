package dragout

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The loopback server WebView2's DownloadURL fetches from serves a verified
// zip or image to the holder of its token, typed as what it is, and nothing
// else.
func TestDragServerServesOnlyVerifiedFiles(t *testing.T) {
	dir := t.TempDir()
	content := []byte("PK\x03\x04 the bytes of a verified zip")
	put := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, content, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, bad := put("my project.zip"), put("slip.zip")
	img := filepath.Join(dir, "ferry at dawn.png")
	pngBytes := []byte("\x89PNG\r\n\x1a\n the bytes of a verified image")
	if err := os.WriteFile(img, pngBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "other.zip")
	if err := os.WriteFile(outside, content, 0o600); err != nil {
		t.Fatal(err)
	}
	// find plays the app's Artifacts.DragPath: a verified zip of the
	// library is its path, a quarantined one artifact_unsafe, anything
	// else artifact_not_found.
	find := func(path string) (string, error) {
		switch filepath.Clean(path) {
		case good, img:
			return filepath.Clean(path), nil
		case bad:
			return "", errs.New(errs.ArtifactUnsafe, "slip.zip is quarantined")
		}
		return "", errs.New(errs.ArtifactNotFound, "%s is not a file of the artifacts directory", path)
	}

	d := &dragServer{find: find}
	src, err := d.Source()
	if err != nil || src.Kind != dragDownloadURL || !strings.HasPrefix(src.Base, "http://127.0.0.1:") || !strings.HasSuffix(src.Base, "/") {
		t.Fatalf("Source = %+v, %v; want a download-url on loopback", src, err)
	}
	if again, _ := d.Source(); again != src {
		t.Errorf("a second Source = %+v, want the same server %+v", again, src)
	}
	get := func(base, name, path string) (*http.Response, []byte) {
		t.Helper()
		resp, err := http.Get(base + url.PathEscape(name) + "?path=" + url.QueryEscape(path))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}

	t.Run("a verified zip comes back whole, as a zip", func(t *testing.T) {
		resp, b := get(src.Base, filepath.Base(good), good)
		if resp.StatusCode != 200 || !bytes.Equal(b, content) || resp.Header.Get("Content-Type") != "application/zip" {
			t.Fatalf("GET verified = %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(b))
		}
	})
	t.Run("a verified image comes back whole, as an image", func(t *testing.T) {
		resp, b := get(src.Base, filepath.Base(img), img)
		if resp.StatusCode != 200 || !bytes.Equal(b, pngBytes) || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("GET image = %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(b))
		}
		if cd := resp.Header.Get("Content-Disposition"); cd != "attachment; filename*=UTF-8''ferry%20at%20dawn.png" {
			t.Errorf("Content-Disposition %q", cd)
		}
	})
	t.Run("a quarantined zip is refused", func(t *testing.T) {
		if resp, _ := get(src.Base, filepath.Base(bad), bad); resp.StatusCode != http.StatusForbidden {
			t.Errorf("GET quarantined = %d, want 403", resp.StatusCode)
		}
	})
	t.Run("a file outside the library is not there", func(t *testing.T) {
		if resp, _ := get(src.Base, "other.zip", outside); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET outside = %d, want 404", resp.StatusCode)
		}
	})
	t.Run("a name that is not the zip's is not there", func(t *testing.T) {
		if resp, _ := get(src.Base, "renamed.zip", good); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET with another name = %d, want 404", resp.StatusCode)
		}
	})
	t.Run("without the token nothing is served", func(t *testing.T) {
		wrong := strings.Replace(src.Base, d.token, strings.Repeat("0", len(d.token)), 1)
		if resp, _ := get(wrong, filepath.Base(good), good); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET with a wrong token = %d, want 404", resp.StatusCode)
		}
	})
}
