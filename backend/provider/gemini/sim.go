package gemini

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
)

// simScript builds the simulated Gemini page in the browser (see SimSite).
//
//go:embed sim.js
var simScript []byte

// SimSite returns the simulator's stand-in for Gemini: its pages, its API and
// the page script, registered with sim.Register.
//
// Fidelity checklist against the providers reference (providers.md): each
// fact and where it is reproduced; "GAP" marks facts not reproduced.
//
// Gemini (sim.go, sim.js): rich-textarea .ql-editor[contenteditable]
// [role="textbox"][aria-label*="prompt"] with ql-blank; button.send-button
// [aria-label="Send message"] always enabled, Enter does not send; stop
// [aria-label="Stop response"] with mat-icon[fonticon="stop"]; user-query
// .query-text, model-response › message-content › .markdown[aria-busy],
// model-thoughts; code-block › .code-block-decoration (label, Copy code) ›
// pre > code.code-container; .response-footer.complete and message-actions;
// bard-mode-switcher button, gem-menu [role="menuitem"] (Flash-Lite, Flash,
// Pro, Extended thinking); a[aria-label*="Google Account"] or a Sign-in link to
// accounts.google.com; no file input: files are taken only by a drop on
// input-area-v2 (sim.MountUploads, Sim.uploads: tiles with a spinner while
// uploading; the send button stays enabled but a click then is ignored;
// f.req carries the file refs; the upload requests are ChatGPT's shape, the
// reference has none for Gemini: GAP). StreamGenerate with at/f.req, ")]}'"
// then UTF-16-length-prefixed wrb.fr frames, candidate [1][0] full text,
// [8][0]==2 complete, body[42] model; a failed turn is a frame
// [3, null, [["…BardErrorInfo", [code]]]] as in the captured one (1037 usage
// limit; scenario error_info: another code after a partial answer, the page
// showing its generic notice); "Sorry, something went wrong…" rendered as a
// normal message. A new chat's address becomes
// /app/<hex> (conversation c_<hex>) as soon as a frame names the
// conversation, while the answer streams (the reference is silent on when:
// the app's own routing). An image turn (scenario image) names its images
// at candidate [12][7][0][*][0][3][3] as https://lh3.googleusercontent.com/gg-dl/<token>
// addresses (the reference's facts), which the simulator serves with and
// without the =sNNNN size suffix, cookie-free (whether the real host wants
// Google's cookies is not public); the page does not show them (its markup
// for them is not public). GAPs: dropped mode selections,
// Tools/Deep Think, interim "Searching the internet" texts,
// codes 1052/1060, "unusual traffic" page.
func SimSite() sim.Site {
	return sim.Site{
		ID:           ID,
		Host:         "gemini.google.com",
		Title:        "Google Gemini",
		Script:       simScript,
		DefaultModel: "gemini-3-flash",
		Scenarios:    []string{sim.ScenarioThinking, sim.ScenarioErrorInfo, sim.ScenarioRenamedSend, sim.ScenarioUploadSlow, sim.ScenarioUploadLimit, sim.ScenarioUploadNoTile, sim.ScenarioUploadStall, sim.ScenarioImage},
		ExtraHosts:   []string{imageHost},
		Drift: map[string]string{
			"composer": "rich-textarea .input-editor[contenteditable=\"true\"]",
			"send":     "button.submit-button[aria-label=\"Submit\"]",
			"answer":   "model-response message-content .response-markdown",
			"done":     "model-response .turn-footer.complete",
		},
		Routes: func(s *sim.Server) http.Handler { return simServer{s}.routes() },
	}
}

// simServer is the simulator as Gemini's handlers see it.
type simServer struct{ *sim.Server }

func (s simServer) routes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) {
		// /app/<hex> shows conversation c_<hex>.
		conv := r.PathValue("id")
		if conv != "" {
			conv = "c_" + conv
		}
		s.ServePage(w, r, ID, conv)
	}
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /app", page)
	mux.HandleFunc("GET /app/{id}", page)
	mux.HandleFunc("POST /_/BardChatUi/data/assistant.lamda.BardFrontendService/StreamGenerate", s.geminiGenerate)
	mux.HandleFunc("GET /gg-dl/{token}", s.geminiImage)
	s.MountUploads(mux, ID, "/_/upload", 100<<20, func(name string) string { return "File " + name + " is too large. Try uploading a smaller file." })
	return s.Gate(ID, mux)
}

// geminiFrame writes one length-prefixed frame; the length counts UTF-16
// code units of the JSON plus its newline, as the web client expects.
func geminiFrame(f *sim.Flusher, v any) {
	b, _ := json.Marshal(v)
	n := len(utf16.Encode([]rune(string(b)))) + 1
	f.Write(fmt.Sprintf("%d\n%s\n", n, b))
}

// geminiEnvelope wraps an inner body as the wrb.fr envelope.
func geminiEnvelope(inner any) any {
	b, _ := json.Marshal(inner)
	return []any{[]any{"wrb.fr", nil, string(b)}}
}

func geminiBody(cid, rid, rcid, text string, thoughts string, complete bool, model string, images ...string) []any {
	state := 1
	if complete {
		state = 2
	}
	cand := make([]any, 38)
	cand[0] = rcid
	cand[1] = []any{text}
	cand[8] = []any{state}
	if thoughts != "" {
		cand[37] = []any{[]any{thoughts}}
	}
	if len(images) > 0 {
		// [12][7][0][*][0][3][3]: each image's address.
		list := make([]any, 0, len(images))
		for _, u := range images {
			list = append(list, []any{[]any{nil, nil, nil, []any{nil, nil, nil, u}}})
		}
		extra := make([]any, 8)
		extra[7] = []any{list}
		cand[12] = extra
	}
	body := make([]any, 43)
	body[1] = []any{cid, rid}
	body[4] = []any{cand}
	body[42] = model
	return body
}

func (s simServer) geminiGenerate(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("at") == "" || !s.HasSession(r, ID) {
		http.Error(w, "Bad Request", http.StatusBadRequest)
		return
	}
	var outer []any
	var inner []any
	var attached []string
	prompt, cid := "", ""
	if json.Unmarshal([]byte(r.PostForm.Get("f.req")), &outer) == nil && len(outer) > 1 {
		if sv, ok := outer[1].(string); ok && json.Unmarshal([]byte(sv), &inner) == nil && len(inner) > 0 {
			if p, ok := inner[0].([]any); ok && len(p) > 0 {
				prompt, _ = p[0].(string)
				if len(p) > 3 {
					attached = fileRefs(p[3])
				}
			}
			if len(inner) > 2 {
				if ids, ok := inner[2].([]any); ok && len(ids) > 0 {
					cid, _ = ids[0].(string)
				}
			}
		}
	}
	if cid == "" {
		cid = "c_" + s.MACHex("gcid", prompt, time.Now().String())[:16]
	}
	if len(attached) > 0 {
		names, err := s.AttachmentNames(ID, attached)
		if err != nil {
			http.Error(w, "Bad Request", http.StatusBadRequest)
			return
		}
		s.StageAttachments(ID, names)
	}
	errFrame := func(code int) sim.Refusal {
		return sim.Refusal{Status: 200, ContentType: "application/json; charset=utf-8", Body: func(t sim.Turn, _ time.Time) string {
			b, _ := json.Marshal(bardError(code))
			return fmt.Sprintf(")]}'\n\n%d\n%s\n", len(b)+1, b)
		}}
	}
	t, ok := s.BeginTurn(w, ID, cid, prompt, errFrame(1037), errFrame(1037))
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	f := sim.NewFlusher(w)
	f.Write(")]}'\n\n")
	rid, rcid := "r_"+s.MACHex("rid", cid, prompt)[:16], "rc_"+s.MACHex("rcid", cid, prompt)[:16]
	model := t.Answer.Model
	var ext []any
	if json.Unmarshal([]byte(r.Header.Get("x-goog-ext-525001261-jspb")), &ext) == nil && len(ext) > 4 {
		if id, ok := ext[4].(string); ok && id != "" {
			model = id
		}
	}
	thoughts := ""
	for _, th := range t.Answer.Thoughts {
		for _, c := range sim.Chunks(th+" ", t.Pace.Chunk) {
			thoughts += c
			geminiFrame(f, geminiEnvelope(geminiBody(cid, rid, rcid, "", thoughts, false, model)))
			if !sim.Sleep(r.Context(), t.Pace.Interval) {
				return
			}
		}
	}
	done := t.Pieces(r.Context(), t.Answer.Text, func(_, so string) {
		geminiFrame(f, geminiEnvelope(geminiBody(cid, rid, rcid, so, thoughts, false, model)))
	})
	if !done {
		if t.Scenario.Name == sim.ScenarioErrorInfo {
			geminiFrame(f, bardError(t.Scenario.Int("code", 1013)))
			return
		}
		if t.Scenario.Name == sim.ScenarioError {
			geminiFrame(f, geminiEnvelope(geminiBody(cid, rid, rcid, "Sorry, something went wrong. Please try your request again.", "", true, model)))
			return
		}
		sim.AbortStream()
	}
	var images []string
	if t.Scenario.Name == sim.ScenarioImage {
		images = s.imageAddresses(cid, t.Scenario)
	}
	geminiFrame(f, geminiEnvelope(geminiBody(cid, rid, rcid, t.Answer.Text, thoughts, true, model, images...)))
	geminiFrame(f, []any{[]any{"di", 120}, []any{"af.httprm", 120, "sim", 7}})
}

// bardError is the frame of a failed turn as the real stream carries it
// (the reference: BardErrorInfo errors in the stream, 2026-07): status 3
// with a BardErrorInfo detail holding the code.
func bardError(code int) []any {
	return []any{[]any{"wrb.fr", nil, nil, nil, nil, []any{3, nil, []any{[]any{"type.googleapis.com/assistant.boq.bard.application.BardErrorInfo", []any{code}}}}}}
}

// fileRefs reads the file ids of f.req's attachment list ([[[id, 1], name], …]).
func fileRefs(v any) []string {
	list, _ := v.([]any)
	var ids []string
	for _, e := range list {
		pair, _ := e.([]any)
		if len(pair) == 0 {
			continue
		}
		ref, _ := pair[0].([]any)
		if len(ref) > 0 {
			if id, ok := ref[0].(string); ok {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// imageAddresses are the addresses of the images an image turn of
// conversation cid makes (params count and size, as ChatGPT's): each
// token names its seed and size and is signed, so the image host serves
// it without keeping anything.
func (s simServer) imageAddresses(cid string, sc sim.Scenario) []string {
	w, h := 1024, 1024
	if a, b, ok := strings.Cut(sc.Param("size", "1024x1024"), "x"); ok {
		w, _ = strconv.Atoi(a)
		h, _ = strconv.Atoi(b)
	}
	w, h = min(max(w, 1), 4096), min(max(h, 1), 4096)
	var out []string
	for i := range min(max(sc.Int("count", 1), 1), 8) {
		seed := "AOI" + s.MACHex("gg-seed", cid, strconv.Itoa(i), time.Now().String())[:20]
		tok := fmt.Sprintf("%s-%dx%d", seed, w, h)
		out = append(out, "https://"+imageHost+"/gg-dl/"+tok+"-"+s.MACHex("gg-dl", tok)[:16])
	}
	return out
}

// imageSeed is the simulator's image of a gg-dl token: the simimage seed
// and size it was made from; ok is false for a token it did not sign.
func (s simServer) imageSeed(token string) (tok string, w, h int, ok bool) {
	i := strings.LastIndexByte(token, '-')
	if i < 0 || token[i+1:] != s.MACHex("gg-dl", token[:i])[:16] {
		return "", 0, 0, false
	}
	tok = token[:i]
	j := strings.LastIndexByte(tok, '-')
	if j < 0 {
		return "", 0, 0, false
	}
	a, b, _ := strings.Cut(tok[j+1:], "x")
	w, _ = strconv.Atoi(a)
	h, _ = strconv.Atoi(b)
	return token, w, h, w > 0 && h > 0
}

// geminiImage serves GET /gg-dl/<token>[=sNNNN] on the image host: the PNG
// simimage makes from the whole token (the address without its size
// suffix), for a token the simulator signed; 404 otherwise.
func (s simServer) geminiImage(w http.ResponseWriter, r *http.Request) {
	token, _, _ := strings.Cut(r.PathValue("token"), "=")
	seed, iw, ih, ok := s.imageSeed(token)
	if !ok || r.Host != imageHost {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cache-Control", "private, max-age=86400")
	_, _ = w.Write(simimage.PNG(seed, iw, ih))
}
