package sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
	"unicode/utf16"
)

func (s *Server) geminiRoutes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.servePage(w, r, Gemini, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /app", page)
	mux.HandleFunc("GET /app/{id}", page)
	mux.HandleFunc("POST /_/BardChatUi/data/assistant.lamda.BardFrontendService/StreamGenerate", s.geminiGenerate)
	return s.siteGate(Gemini, mux)
}

// geminiFrame writes one length-prefixed frame; the length counts UTF-16
// code units of the JSON plus its newline, as the web client expects.
func geminiFrame(f *flusher, v any) {
	b, _ := json.Marshal(v)
	n := len(utf16.Encode([]rune(string(b)))) + 1
	f.write(fmt.Sprintf("%d\n%s\n", n, b))
}

// geminiEnvelope wraps an inner body as the wrb.fr envelope.
func geminiEnvelope(inner any) any {
	b, _ := json.Marshal(inner)
	return []any{[]any{"wrb.fr", nil, string(b)}}
}

func geminiBody(cid, rid, rcid, text string, thoughts string, complete bool, model string) []any {
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
	body := make([]any, 43)
	body[1] = []any{cid, rid}
	body[4] = []any{cand}
	body[42] = model
	return body
}

func (s *Server) geminiGenerate(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("at") == "" || !s.hasSession(r, Gemini) {
		http.Error(w, "Bad Request", http.StatusBadRequest)
		return
	}
	var outer []any
	var inner []any
	prompt, cid := "", ""
	if json.Unmarshal([]byte(r.PostForm.Get("f.req")), &outer) == nil && len(outer) > 1 {
		if sv, ok := outer[1].(string); ok && json.Unmarshal([]byte(sv), &inner) == nil && len(inner) > 0 {
			if p, ok := inner[0].([]any); ok && len(p) > 0 {
				prompt, _ = p[0].(string)
			}
			if len(inner) > 2 {
				if ids, ok := inner[2].([]any); ok && len(ids) > 0 {
					cid, _ = ids[0].(string)
				}
			}
		}
	}
	if cid == "" {
		cid = "c_" + s.macHex("gcid", prompt, time.Now().String())[:16]
	}
	errFrame := func(code int) refusal {
		return refusal{status: 200, ctype: "application/json; charset=utf-8", body: func(t siteTurn, _ time.Time) string {
			b, _ := json.Marshal([]any{[]any{"wrb.fr", nil, nil, nil, nil, []any{code}}})
			return fmt.Sprintf(")]}'\n\n%d\n%s\n", len(b)+1, b)
		}}
	}
	t, ok := s.beginTurn(w, Gemini, cid, prompt, errFrame(1037), errFrame(1037))
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	f := newFlusher(w)
	f.write(")]}'\n\n")
	rid, rcid := "r_"+s.macHex("rid", cid, prompt)[:16], "rc_"+s.macHex("rcid", cid, prompt)[:16]
	model := t.a.Model
	var ext []any
	if json.Unmarshal([]byte(r.Header.Get("x-goog-ext-525001261-jspb")), &ext) == nil && len(ext) > 4 {
		if id, ok := ext[4].(string); ok && id != "" {
			model = id
		}
	}
	thoughts := ""
	for _, th := range t.a.Thoughts {
		for _, c := range chunks(th+" ", t.pace.Chunk) {
			thoughts += c
			geminiFrame(f, geminiEnvelope(geminiBody(cid, rid, rcid, "", thoughts, false, model)))
			if !sleep(r.Context(), t.pace.Interval) {
				return
			}
		}
	}
	done := t.pieces(r.Context(), t.a.Text, func(_, so string) {
		geminiFrame(f, geminiEnvelope(geminiBody(cid, rid, rcid, so, thoughts, false, model)))
	})
	if !done {
		if t.sc.Name == ScenarioError {
			geminiFrame(f, geminiEnvelope(geminiBody(cid, rid, rcid, "Sorry, something went wrong. Please try your request again.", "", true, model)))
			return
		}
		abortStream()
	}
	geminiFrame(f, geminiEnvelope(geminiBody(cid, rid, rcid, t.a.Text, thoughts, true, model)))
	geminiFrame(f, []any{[]any{"di", 120}, []any{"af.httprm", 120, "sim", 7}})
}
