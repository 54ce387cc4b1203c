package chatgptsim

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
)

// Image generation, from providers.md ("Tools", "Image generation"): a
// plain prompt or the "Create image" tool (system_hints ["picture_v2"]). The
// assistant calls the image tool (a code message to image_gen.text2im), the
// tool's message (author role tool, metadata.image_gen_title) holds
// multimodal_text parts of content_type image_asset_pointer with
// asset_pointer sediment://file_…, width, height and size_bytes once the
// generation is over, and the final answer is empty. Each image downloads
// through GET /backend-api/files/{id}/download (bearer) → {status, download_url,
// file_name, mime_type, file_size_bytes}, download_url on the cookie-bound
// estuary. The page shows each as an img whose alt says "Generated image"
// inside a div id="image-<file>" class imagegen-image.
const (
	ScenarioImage          = sim.ScenarioImage
	ScenarioImageRefused   = "image_refused"
	ScenarioImageExpired   = "image_download_expired"
	ScenarioImageWrongType = "image_wrong_type"
)

// imageTool is the tool the assistant calls and the author of its result.
const imageTool = "image_gen.text2im"

// The words of a refused image, as the tool and the answer say them.
const (
	refusedToolText   = "This image generation request did not follow our content policy."
	RefusedAnswerText = "I can’t create that image because the request goes against our content policy. If you’d like, describe something else and I’ll make that instead."
)

var imageScenarios = []sim.ScenarioInfo{
	{Name: ScenarioImageRefused, About: "an image prompt the image tool refuses: its message says the request did not follow the content policy, no image, the answer explains it"},
	{Name: ScenarioImageExpired, About: "an image prompt whose images' download addresses are already expired when minted (the estuary answers 403 \"Signed expiry time has passed.\"), for the first param times mints of each image (default: every mint)"},
	{Name: ScenarioImageWrongType, About: "an image prompt whose files/{id}/download says image/png while the estuary serves an HTML error page as the bytes"},
}

// simImage is one generated image the files endpoint and the estuary serve.
type simImage struct {
	Conv    string
	Name    string
	Body    []byte
	Mime    string // what the estuary sends as Content-Type
	Claim   string // what files/{id}/download says the file is
	Expired int    // mints still to hand out expired (-1: every one)
}

// imageTurn reports whether turn t generates images and how: the image
// tool asked for, or an image scenario.
func imageTurn(t chatgptTurn) bool {
	switch t.sc.Name {
	case ScenarioImage, ScenarioImageRefused, ScenarioImageExpired, ScenarioImageWrongType:
		return true
	}
	return slices.Contains(t.hints, "picture_v2")
}

// streamImages streams the image tool's call and result of turn t and
// returns the final answer's text ("" for images made, the refusal's words
// otherwise); ok is false when the reader went away.
func (s *simServer) streamImages(ctx context.Context, d *deltaEncoder, t chatgptTurn, channel *int, parent *string, meta func(...any) sim.Obj, store func(string, sim.Obj)) (string, bool) {
	cid := t.conv.ID
	size := t.sc.Param("size", "1024x1024")
	w, h := 1024, 1024
	if a, b, ok := strings.Cut(size, "x"); ok {
		w, _ = strconv.Atoi(a)
		h, _ = strconv.Atoi(b)
	}
	w, h = min(max(w, 1), 4096), min(max(h, 1), 4096)
	count := min(max(t.sc.Int("count", 1), 1), 8)
	args, _ := json.Marshal(map[string]any{"prompt": sim.PromptTopic(t.prompt), "size": fmt.Sprintf("%dx%d", w, h), "n": count})

	callID := sim.NewUUID()
	call := chatgptMessage(callID, "assistant", "", sim.O("content_type", "code", "language", "json", "response_format_name", nil, "text", string(args)),
		"finished_successfully", false, meta(), imageTool, nil)
	d.op("", "add", sim.O("message", call, "conversation_id", cid, "error", nil), *channel)
	*channel++
	store(*parent, call)
	*parent = callID

	toolID := sim.NewUUID()
	title := "Sim: " + sim.PromptTopic(t.prompt)
	toolMeta := func(done bool) sim.Obj {
		return sim.O("image_gen_title", title, "image_gen_async", false, "is_complete", done, "parent_id", callID)
	}
	tm := chatgptMessage(toolID, "tool", imageTool, sim.O("content_type", "multimodal_text", "parts", []any{}), "in_progress", nil, toolMeta(false), "all", nil)
	d.op("", "add", sim.O("message", tm, "conversation_id", cid, "error", nil), *channel)
	*channel++
	if !sim.Sleep(ctx, t.sc.Duration("gen", 300*time.Millisecond)) {
		return "", false
	}
	finished := sim.O("p", "/message/status", "o", "replace", "v", "finished_successfully")
	if t.sc.Name == ScenarioImageRefused {
		d.op("", "patch", []any{sim.O("p", "/message/content", "o", "replace", "v", sim.O("content_type", "text", "parts", []string{refusedToolText})), finished}, -1)
		store(*parent, chatgptMessage(toolID, "tool", imageTool, sim.O("content_type", "text", "parts", []string{refusedToolText}), "finished_successfully", nil, toolMeta(true), "all", nil))
		*parent = toolID
		return RefusedAnswerText, true
	}
	parts := make([]any, 0, count)
	for i := range count {
		fileID := "file_" + s.MACHex("image", cid, toolID, strconv.Itoa(i))[:32]
		body := simimage.PNG(fileID, w, h)
		img := &simImage{Conv: cid, Name: fileID + ".png", Body: body, Mime: "image/png", Claim: "image/png"}
		switch t.sc.Name {
		case ScenarioImageExpired:
			img.Expired = t.sc.Int("times", -1)
		case ScenarioImageWrongType:
			img.Body = []byte("<!DOCTYPE html><html><head><title>Error</title></head><body>The file could not be served.</body></html>")
			img.Mime = "text/html; charset=utf-8"
		}
		s.mu.Lock()
		s.images[fileID] = img
		s.mu.Unlock()
		gen := sim.O("gen_id", sim.NewUUID(), "gen_size", "xlimage", "seed", nil, "parent_gen_id", nil, "height", h, "width", w,
			"transparent_background", false, "serialization_title", "Image Generation metadata")
		parts = append(parts, sim.O("content_type", "image_asset_pointer", "asset_pointer", "sediment://"+fileID, "size_bytes", len(body),
			"width", w, "height", h, "fovea", nil, "metadata", sim.O("dalle", nil, "gizmo", nil, "generation", gen, "container_pixel_height", h,
				"container_pixel_width", w, "emu_omit_glimpse_image", nil, "emu_patches_override", nil, "sanitized", false)))
	}
	d.op("", "patch", []any{sim.O("p", "/message/content/parts", "o", "replace", "v", parts), finished}, -1)
	store(*parent, chatgptMessage(toolID, "tool", imageTool, sim.O("content_type", "multimodal_text", "parts", parts), "finished_successfully", nil, toolMeta(true), "all", nil))
	*parent = toolID
	return "", true
}

// chatgptFileDownload serves GET /backend-api/files/{id}/download for a
// generated image: a success with an estuary download_url (already expired
// under image_download_expired), 404 for a file it does not know.
func (s *simServer) chatgptFileDownload(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	img := s.images[id]
	expired := false
	// The page's own display of the image (inline=true) is not what
	// lapses: the scenario's mints are the downloads'.
	if img != nil && img.Expired != 0 && r.URL.Query().Get("inline") != "true" {
		expired = true
		if img.Expired > 0 {
			img.Expired--
		}
	}
	s.mu.Unlock()
	if img == nil {
		sim.WriteJSON(w, http.StatusNotFound, sim.O("detail", sim.O("code", "file_not_found", "message", "File not found")))
		return
	}
	// The estuary address names the file itself; its ts dates the
	// signature, which lapses DownloadTTL later.
	signed := time.Now()
	if expired {
		signed = signed.Add(-2 * s.DownloadTTL())
	}
	s.mu.Lock()
	s.files[id] = &simFileRef{Name: img.Name, Conv: img.Conv, Body: img.Body, Mime: img.Mime}
	s.mu.Unlock()
	ts := strconv.FormatInt(signed.Unix(), 10)
	u := "https://chatgpt.com/backend-api/estuary/content?id=" + id + "&ts=" + ts + "&p=fs&cid=1&sig=" + s.MACHex("estuary", id, ts) + "&v=0"
	sim.WriteJSON(w, http.StatusOK, sim.O("status", "success", "download_url", u, "file_name", img.Name, "mime_type", img.Claim,
		"file_size_bytes", len(img.Body), "metadata", sim.O("file_id", id)))
}
