package fetch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Whether the browser writes its downloads where Ferry reads them. It does
// not when it runs on another file system than Ferry: a browser on another
// machine reached through a tunnel, WSL attached to Windows Chrome, ferry.exe
// under Wine attached to Linux Chromium, a browser confined to a private /tmp
// (a snap, a container). The ways that have the browser write a file
// (WayURLDownload, WayDownload) only work when it does.

// FileSharing is what Ferry knows about whether the browser shares its
// files.
type FileSharing struct {
	// Shared is true when the browser's downloads land where Ferry can read
	// them.
	Shared bool `json:"shared"`
	// How is how that was decided: SharingLaunched or SharingProbe.
	How string `json:"how"`
	// Detail says what the probe saw, for the record.
	Detail string `json:"detail,omitempty"`
}

// How FileSharing was decided.
const (
	// SharingLaunched: Ferry started the browser on this machine.
	SharingLaunched = "launched"
	// SharingProbe: the browser, attached to, was asked to download a
	// probe into Ferry's temporary directory.
	SharingProbe = "probe"
	// SharingNotLoopback: the browser is not reached over loopback.
	SharingNotLoopback = "not-loopback"
	// SharingOtherOS: the browser's user agent names another operating
	// system than Ferry's (ferry.exe under Wine attached to Linux
	// Chromium, Linux Ferry in WSL attached to Windows Chrome). It is not
	// probed: a directory Ferry names means nothing there, and the browser
	// would make it, relative to its own working directory.
	SharingOtherOS = "other-os"
)

// probeTimeout bounds the probe download: a browser that has not saved a
// few bytes by then is taken for one that does not share Ferry's files.
const probeTimeout = 5 * time.Second

// sharingCache keeps the answer per browser connection and download
// directory; an entry goes when its connection ends.
var sharingCache = struct {
	sync.Mutex
	m map[*browser.Browser]map[string]FileSharing
}{m: map[*browser.Browser]map[string]FileSharing{}}

// SharesFiles tells whether the browser holding the tab writes downloads
// where Ferry can read them, under dir (the parent of the download
// directories of WayURLDownload and WayDownload; "" is os.TempDir()). A
// browser Ferry launched does. An attached one does only when it is
// reached over loopback and a probe proves it: the tab has the browser
// download a few random bytes (a blob: of the page) into a fresh directory
// under dir, the way WayURLDownload has it download, and Ferry looks for
// them there, for at most 5 s; the probe and its entry in the browser's
// download list are removed. The answer is kept for the connection.
//
// Errors: the page's envelopes and ctx's (a failed or refused probe is an
// answer, not an error); ArtifactSaveFailed when dir cannot hold the probe's
// directory.
func SharesFiles(ctx context.Context, p *browser.Page, dir string) (FileSharing, error) {
	b := p.Browser()
	if b.Launched() {
		return FileSharing{Shared: true, How: SharingLaunched, Detail: "Ferry started the browser"}, nil
	}
	if dir == "" {
		dir = os.TempDir()
	}
	if fs, ok := cachedSharing(b, dir); ok {
		return fs, nil
	}
	var fs FileSharing
	if !loopbackEndpoint(b.Endpoint()) {
		fs = FileSharing{How: SharingNotLoopback, Detail: "the browser is not reached over loopback"}
	} else if other := userAgentOS(b.UserAgent(ctx)); other != "" && other != runtime.GOOS {
		fs = FileSharing{How: SharingOtherOS, Detail: "the browser runs on " + osName(other) + ", Ferry on " + osName(runtime.GOOS)}
	} else {
		var err error
		if fs, err = probeSharing(ctx, p, dir); err != nil {
			return FileSharing{}, err
		}
	}
	sharingCache.Lock()
	defer sharingCache.Unlock()
	if b.Err() != nil {
		return fs, nil
	}
	if sharingCache.m[b] == nil {
		sharingCache.m[b] = map[string]FileSharing{}
		go func() {
			<-b.Done()
			sharingCache.Lock()
			delete(sharingCache.m, b)
			sharingCache.Unlock()
		}()
	}
	sharingCache.m[b][dir] = fs
	return fs, nil
}

// userAgentOS is the GOOS of the system a Chromium user agent names
// ("Windows NT", "Macintosh", "X11; Linux"), or "" when it names none of
// them (Android and ChromeOS say Linux too, and are not taken for it).
func userAgentOS(ua string) string {
	switch {
	case strings.Contains(ua, "Windows NT"):
		return "windows"
	case strings.Contains(ua, "Macintosh"):
		return "darwin"
	case strings.Contains(ua, "Android"), strings.Contains(ua, "CrOS"):
		return ""
	case strings.Contains(ua, "Linux"):
		return "linux"
	}
	return ""
}

// osName is how a user names the system GOOS goos.
func osName(goos string) string {
	switch goos {
	case "windows":
		return "Windows"
	case "darwin":
		return "macOS"
	case "linux":
		return "Linux"
	}
	return goos
}

// cachedSharing is the answer kept for b and dir, if any.
func cachedSharing(b *browser.Browser, dir string) (FileSharing, bool) {
	sharingCache.Lock()
	defer sharingCache.Unlock()
	fs, ok := sharingCache.m[b][dir]
	return fs, ok
}

// loopbackEndpoint reports whether the DevTools address is on this machine.
func loopbackEndpoint(wsURL string) bool {
	u, err := url.Parse(wsURL)
	if err != nil {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// probeSharing has the browser download a random token into a fresh
// directory under dir and reports whether it appeared there.
func probeSharing(ctx context.Context, p *browser.Page, dir string) (FileSharing, error) {
	b := p.Browser()
	defer b.LockDownloads()()
	// Another tab's probe may have answered while this one waited.
	if fs, ok := cachedSharing(b, dir); ok {
		return fs, nil
	}

	probeDir, err := os.MkdirTemp(dir, "ferry-probe-")
	if err != nil {
		return FileSharing{}, errs.Wrap(err, errs.ArtifactSaveFailed, "make a temporary directory for the download probe: %v", err).
			WithEvidence("dir", dir)
	}
	clicked := false
	defer func() {
		_ = removeDownloadDir(probeDir)
		if clicked {
			forgetLater(b, p.ContextID(), probeDir, "")
		}
	}()
	var tok [16]byte
	_, _ = rand.Read(tok[:])
	token := "ferry-probe-" + hex.EncodeToString(tok[:])

	events, stop := b.Events(ctx)
	defer stop()
	if err := b.Call(ctx, "allow the probe download", "Browser.setDownloadBehavior", proto.BrowserSetDownloadBehavior{
		Behavior: proto.BrowserSetDownloadBehaviorBehaviorAllowAndName, DownloadPath: probeDir,
		EventsEnabled: true, BrowserContextID: p.ContextID(),
	}, nil); err != nil {
		return FileSharing{}, err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_ = b.Call(cctx, "restore the download behaviour", "Browser.setDownloadBehavior", proto.BrowserSetDownloadBehavior{
			Behavior: proto.BrowserSetDownloadBehaviorBehaviorDefault, BrowserContextID: p.ContextID(),
		}, nil)
	}()

	var started struct {
		URL string `json:"url"`
		OK  bool   `json:"ok"`
	}
	err = p.EvalInto(ctx, &started, `(token) => {
  const u = URL.createObjectURL(new Blob([token], {type: 'application/octet-stream'}));
  const a = document.createElement('a');
  a.href = u; a.download = 'ferry-probe'; a.style.display = 'none';
  document.documentElement.appendChild(a);
  const ok = a.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
  a.remove();
  setTimeout(() => URL.revokeObjectURL(u), 60000);
  return {url: u, ok};
}`, token)
	clicked = true
	if err != nil {
		return FileSharing{}, err
	}
	probe := func(shared bool, detail string) (FileSharing, error) {
		return FileSharing{Shared: shared, How: SharingProbe, Detail: detail}, nil
	}
	if !started.OK {
		return probe(false, "the page cancelled the click that starts the probe download")
	}
	wait, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	guid := ""
	for {
		select {
		case <-wait.Done():
			if ctx.Err() != nil {
				return FileSharing{}, p.Failure(ctx, "wait for the probe download", ctx.Err())
			}
			if guid != "" {
				cctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
				_ = b.Call(cctx, "cancel the probe download", "Browser.cancelDownload", proto.BrowserCancelDownload{GUID: guid, BrowserContextID: p.ContextID()}, nil)
				stop()
			}
			return probe(false, "the browser did not save the probe download within "+probeTimeout.String())
		case <-p.Done():
			return FileSharing{}, p.Err()
		case m, ok := <-events:
			if !ok {
				return FileSharing{}, p.Failure(ctx, "wait for the probe download", b.Err())
			}
			switch m.Method {
			case "Browser.downloadWillBegin":
				var e proto.BrowserDownloadWillBegin
				if m.Load(&e) && e.URL == started.URL && guid == "" {
					guid = e.GUID
				}
			case "Browser.downloadProgress":
				var e proto.BrowserDownloadProgress
				if !m.Load(&e) || guid == "" || e.GUID != guid {
					continue
				}
				switch e.State {
				case proto.BrowserDownloadProgressStateCompleted:
					got, err := os.ReadFile(filepath.Join(probeDir, guid))
					switch {
					case err == nil && bytes.Equal(got, []byte(token)):
						return probe(true, "the browser's probe download appeared in "+dir)
					case err == nil:
						return probe(false, "another file than the browser's probe download appeared in "+dir)
					}
					return probe(false, "the browser saved its probe download, but not in "+dir+" as Ferry sees it")
				case proto.BrowserDownloadProgressStateCanceled:
					return probe(false, "the browser could not save the probe download into "+dir)
				}
			}
		}
	}
}
