package sim

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// The upload path of the sites that take files (ChatGPT, Claude, Gemini),
// after ChatGPT's as the providers reference describes it: the page asks
// for an upload slot (POST {prefix}/files with the name and size; a file
// over the site's limit is refused there with the site's words), PUTs the
// bytes to the slot, then reads the processing stream (POST
// {prefix}/files/process_upload_stream: started, file.processing.file_ready,
// indexing, file.processing.completed), whose processing phase takes time.
// Only a completed file may be sent; the send names the files it carries
// and the ledger records their names with the submission.

// Upload scenarios (page scenarios of the sites that take files).
const (
	// ScenarioUploadSlow: processing takes param processing (default 3s).
	ScenarioUploadSlow = "upload_slow"
	// ScenarioUploadLimit: the site's file size limit is param max
	// (default 1KiB), so a small file is refused with the site's words.
	ScenarioUploadLimit = "upload_limit"
	// ScenarioUploadNoTile: the page drops the file silently; no tile
	// ever shows.
	ScenarioUploadNoTile = "upload_no_tile"
	// ScenarioUploadStall: the page stops answering once a file is put
	// in: its change (or drop) handler opens a modal dialog that nobody
	// dismisses, so every later call into the page waits.
	ScenarioUploadStall = "upload_stall"
)

// Upload is one file the simulator received.
type Upload struct {
	Site   string `json:"site"`
	ID     string `json:"id"`
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256,omitempty"`
	// Completed says processing finished: the file may be sent.
	Completed bool `json:"completed"`
	// Body is the bytes received, kept for a file of at most
	// keptUploadBytes so that a test can open what the site got.
	Body []byte `json:"-"`
}

// keptUploadBytes bounds the files whose bytes the ledger keeps.
const keptUploadBytes = 4 << 20

// uploadProcessing is how long processing takes without upload_slow.
const uploadProcessing = 300 * time.Millisecond

// UploadOption changes how MountUploads behaves for one site.
type UploadOption func(*uploadConf)

type uploadConf struct{ renameRepeats bool }

// RenameRepeats makes the site rename a file whose name its account's
// library already holds, as ChatGPT does (providers reference, ChatGPT
// upload: "a.txt" -> "a(1).txt"): the library keeps the new name, the
// slot's answer carries it as file_name, and the page's tile shows it.
func RenameRepeats() UploadOption { return func(c *uploadConf) { c.renameRepeats = true } }

// MountUploads serves the upload path of site under prefix on mux, with
// maxBytes the site's file size limit and tooLarge the words it refuses a
// file with (given the file's name).
func (s *Server) MountUploads(mux *http.ServeMux, site, prefix string, maxBytes int64, tooLarge func(name string) string, opts ...UploadOption) {
	var conf uploadConf
	for _, o := range opts {
		o(&conf)
	}
	mux.HandleFunc("POST "+prefix+"/files", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Name string `json:"file_name"`
			Size int64  `json:"file_size"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil || req.Name == "" {
			WriteJSON(w, http.StatusBadRequest, O("detail", "Invalid request body"))
			return
		}
		limit := maxBytes
		if sc := s.PageScenario(site); sc.Name == ScenarioUploadLimit {
			limit = sc.Size("max", 1<<10)
		}
		if req.Size > limit {
			WriteJSON(w, http.StatusBadRequest, O("status", "error", "detail", tooLarge(req.Name)))
			return
		}
		id := "file-" + strings.ReplaceAll(NewUUID(), "-", "")[:24]
		s.mu.Lock()
		name := req.Name
		if conf.renameRepeats {
			name = libraryName(s.ledger.uploads, site, req.Name)
		}
		s.ledger.uploads = append(s.ledger.uploads, Upload{Site: site, ID: id, Name: name, Size: req.Size})
		s.mu.Unlock()
		WriteJSON(w, http.StatusOK, O("status", "success", "upload_url", prefix+"/files/blob/"+id+"?se=sim&sig="+s.MACHex("blob", id)[:16], "file_id", id, "file_name", name))
	})
	mux.HandleFunc("PUT "+prefix+"/files/blob/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		u, ok := s.upload(id)
		if !ok || u.Site != site || r.URL.Query().Get("sig") != s.MACHex("blob", id)[:16] || r.Header.Get("x-ms-blob-type") != "BlockBlob" {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		h := sha256.New()
		var kept bytes.Buffer
		dst := io.Writer(h)
		if u.Size <= keptUploadBytes {
			dst = io.MultiWriter(h, &kept)
		}
		n, err := io.Copy(dst, r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if !s.updateUpload(id, func(u *Upload) bool {
			if n != u.Size {
				return false
			}
			u.SHA256 = hex.EncodeToString(h.Sum(nil))
			if u.Size <= keptUploadBytes {
				u.Body = kept.Bytes()
			}
			return true
		}) {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusCreated)
	})
	mux.HandleFunc("POST "+prefix+"/files/process_upload_stream", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID string `json:"file_id"`
		}
		_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req)
		u, ok := s.upload(req.ID)
		if !ok || u.SHA256 == "" {
			WriteJSON(w, http.StatusNotFound, O("detail", "File not found"))
			return
		}
		processing := uploadProcessing
		if sc := s.PageScenario(site); sc.Name == ScenarioUploadSlow {
			processing = sc.Duration("processing", 3*time.Second)
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		f := NewFlusher(w)
		line := func(event string, progress int) {
			f.Write(CompactJSON(O("file_id", req.ID, "event", event, "progress", progress)) + "\n")
		}
		line("file.processing.started", 0)
		line("file.processing.file_ready", 40)
		select {
		case <-r.Context().Done():
			return
		case <-time.After(processing):
		}
		line("file.indexing.completed", 90)
		s.updateUpload(req.ID, func(u *Upload) bool { u.Completed = true; return true })
		line("file.processing.completed", 100)
	})
}

// libraryName is the name site's library gives a file named name: name
// itself, or "stem(N).ext" with the lowest N free when a file of site
// already holds the name.
func libraryName(held []Upload, site, name string) string {
	taken := map[string]bool{}
	for _, u := range held {
		if u.Site == site {
			taken[u.Name] = true
		}
	}
	if !taken[name] {
		return name
	}
	stem, ext := name, ""
	if dot := strings.LastIndexByte(name, '.'); dot > 0 {
		stem, ext = name[:dot], name[dot:]
	}
	for n := 1; ; n++ {
		if c := fmt.Sprintf("%s(%d)%s", stem, n, ext); !taken[c] {
			return c
		}
	}
}

func (s *Server) upload(id string) (Upload, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.ledger.uploads {
		if u.ID == id {
			return u, true
		}
	}
	return Upload{}, false
}

func (s *Server) updateUpload(id string, fn func(u *Upload) bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.ledger.uploads {
		if s.ledger.uploads[i].ID == id {
			return fn(&s.ledger.uploads[i])
		}
	}
	return false
}

// Uploads returns the files site received ("" = every site), oldest first.
func (s *Server) Uploads(site string) []Upload {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Upload
	for _, u := range s.ledger.uploads {
		if site == "" || u.Site == site {
			out = append(out, u)
		}
	}
	return out
}

// AttachmentNames resolves the file ids a send carries to the names the
// ledger records. An id the site never completed is an error: a real site
// refuses such a message.
func (s *Server) AttachmentNames(site string, ids []string) ([]string, error) {
	var names []string
	for _, id := range ids {
		u, ok := s.upload(id)
		if !ok || u.Site != site || !u.Completed {
			return nil, fmt.Errorf("file %s is not a completed upload of %s", id, site)
		}
		names = append(names, u.Name)
	}
	return names, nil
}

// StageAttachments sets the attachment names the next submission to site
// recorded through BeginTurn carries.
func (s *Server) StageAttachments(site string, names []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ledger.staged == nil {
		s.ledger.staged = map[string][]string{}
	}
	s.ledger.staged[site] = names
}
