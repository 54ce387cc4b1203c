package chatgptsim

import (
	"context"
	"net/http"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// deltaEncoder writes ChatGPT's delta-encoding v1 SSE. It applies the real
// compression rule: a frame whose path and op equal the previous delta
// frame's omits both ("p"/"o"), and the reader must inherit them.
type deltaEncoder struct {
	out     func(string) // the response, or the socket's topic once handed off
	lastP   string
	lastO   string
	started bool

	sc     sim.Scenario    // the turn's scenario, for its pause (sim.Pause)
	answer string          // the turn's answer text, the one that pauses
	hold   <-chan struct{} // the turn's hold (sim.Server.Hold)

	// handoffAt is the chunk of the answer before which handOff moves the
	// rest of the turn to the socket (stream_handoff); 0: never.
	handoffAt int
	handOff   func()

	// refs paces a web search answer's content_references (nil: none).
	refs *refPacer
}

func (d *deltaEncoder) op(p, op string, v any, channel int) {
	fr := sim.Obj{}
	if !d.started || p != d.lastP || op != d.lastO {
		fr = append(fr, sim.KV{K: "p", V: p}, sim.KV{K: "o", V: op})
	}
	fr = append(fr, sim.KV{K: "v", V: v})
	if channel >= 0 {
		fr = append(fr, sim.KV{K: "c", V: channel})
	}
	d.lastP, d.lastO, d.started = p, op, true
	d.out("event: delta\ndata: " + sim.PyJSON(fr) + "\n\n")
}

func (d *deltaEncoder) data(v any) { d.out("data: " + sim.PyJSON(v) + "\n\n") }

// streamText appends text to path in paced chunks; the last chunk rides in
// the closing patch together with tail ops. It returns the text actually
// sent and whether the stream may continue (false on cut or cancel).
func (d *deltaEncoder) streamText(ctx context.Context, path, text string, pace sim.Pace, tail []sim.Obj, cutAt int) (string, bool) {
	parts, pause := sim.Chunks(text, pace.Chunk), sim.Pause{Before: -1}
	if text == d.answer {
		parts, pause = sim.PausedChunks(d.sc, text, pace.Chunk)
		pause.Hold = d.hold
	}
	sent := ""
	for i, part := range parts {
		if cutAt > 0 && i == cutAt {
			return sent, false
		}
		if !pause.Wait(ctx, i, len(parts)) {
			return sent, false
		}
		// A short answer hands off before its last chunk at the latest.
		if text == d.answer && i == min(d.handoffAt, len(parts)-1) && d.handOff != nil {
			d.handOff()
		}
		if i == len(parts)-1 {
			break
		}
		d.op(path, "append", part, -1)
		sent += part
		if text == d.answer && d.refs != nil {
			d.refs.chunk(d, sent)
		}
		if !sim.Sleep(ctx, pace.Interval) {
			return sent, false
		}
	}
	last := ""
	if len(parts) > 0 {
		last = parts[len(parts)-1]
	}
	ops := []any{sim.O("p", path, "o", "append", "v", last)}
	if text == d.answer && d.refs != nil {
		tail = append(d.refs.tail(), tail...)
	}
	for _, t := range tail {
		ops = append(ops, t)
	}
	d.op("", "patch", ops, -1)
	return sent + last, true
}

func finishOps(status string, finish string) []sim.Obj {
	return []sim.Obj{
		sim.O("p", "/message/status", "o", "replace", "v", status),
		sim.O("p", "/message/end_turn", "o", "replace", "v", true),
		sim.O("p", "/message/metadata", "o", "append", "v", sim.O("finish_details", sim.O("type", finish, "stop_tokens", []any{200002}), "is_complete", true)),
	}
}

// chatgptTurn is one request to /backend-api/f/conversation.
type chatgptTurn struct {
	conv    *simConversation
	isNew   bool
	parent  string
	userMsg sim.Obj
	prompt  string
	model   string
	sc      sim.Scenario
	anon    bool
	hints   []string // the request's system_hints (the tools sent)
	search  bool     // the send's system_hints ask for web search
	refs    []any    // the answer's content_references (web search)
}

// streamChatGPT writes the whole SSE answer of one turn and records the
// resulting messages in the conversation.
//
// Under stream_handoff the response hands the turn off to the user socket
// after param at chunks of the answer (default 2; param size makes the
// answer that long, param drop drops the socket once after that many
// items): stream_handoff with the topic, [DONE], the response ends, and
// each later event is a stream item of the topic (handedOff is called then:
// the handler may return while the generation goes on).
func (s *simServer) streamChatGPT(ctx context.Context, w http.ResponseWriter, t chatgptTurn, handedOff func()) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	f := sim.NewFlusher(w)
	d := &deltaEncoder{out: f.Write}
	cid := t.conv.ID
	pace := s.PaceFor(t.sc)
	a := sim.AnswerFor(ID, t.sc, t.prompt)
	if t.sc.Name == sim.ScenarioStreamHandoff && t.sc.Param("size", "") != "" {
		a = sim.AnswerFor(ID, sim.Scenario{Name: sim.ScenarioLong, Params: t.sc.Params}, t.prompt)
	}
	if t.search {
		a.Text, t.refs = searchAnswer(t.prompt)
		d.refs = &refPacer{refs: t.refs}
	}
	d.sc, d.answer, d.hold = t.sc, a.Text, s.Hold(t.sc)
	if handedOff != nil {
		turn := sim.NewUUID()
		topic := "conversation-turn-" + turn
		d.handoffAt = max(t.sc.Int("at", 2), 1)
		d.handOff = func() {
			s.celsius.turnTopic(topic, t.sc.Int("drop", 0))
			d.data(sim.O("type", "resume_conversation_token", "kind", "topic", "token", s.AccessTokenUntil(time.Now().Add(2*time.Hour)), "conversation_id", cid))
			d.data(sim.O("type", "stream_handoff", "conversation_id", cid, "turn_exchange_id", turn,
				"options", []any{sim.O("type", "resume_sse_endpoint", "topic_id", topic), sim.O("type", "subscribe_ws_topic", "topic_id", topic)}))
			d.out("data: [DONE]\n\n")
			prev := any(nil)
			d.out = func(sse string) {
				id := sim.NewUUID()
				s.celsius.publish(topic, sim.O("type", "conversation-turn-stream", "payload", sim.O("type", "stream-item",
					"conversation_id", cid, "turn_id", turn, "encoded_item", sse, "stream_item_id", id,
					"parent_stream_item_id", prev, "server_timestamp_ms", time.Now().UnixMilli())))
				prev = id
			}
			handedOff()
		}
	}
	model := t.model
	if model == "" || model == "auto" {
		model = a.Model
		if t.anon {
			model = "gpt-5-mini"
		}
	}
	// A rerouted turn is answered by another model than the one asked.
	resolved := model
	if t.sc.Name == sim.ScenarioRerouted {
		resolved = "gpt-5-5-thinking"
		if model == resolved {
			resolved = "gpt-5-3-thinking"
		}
	}
	store := func(parent string, m sim.Obj) {
		s.mu.Lock()
		t.conv.add(parent, m)
		t.conv.Model = model
		s.mu.Unlock()
	}

	d.out("event: delta_encoding\ndata: \"v1\"\n\n")
	d.data(sim.O("type", "resume_conversation_token", "kind", "conduit", "token", s.AccessTokenUntil(time.Now().Add(time.Hour)), "conversation_id", cid))

	channel := 0
	parent := t.parent
	if t.isNew {
		sys := chatgptMessage(sim.NewUUID(), "system", "", sim.O("content_type", "text", "parts", []string{""}), "finished_successfully", true,
			sim.O("is_visually_hidden_from_conversation", true), "all", nil)
		d.op("", "add", sim.O("message", sys, "conversation_id", cid, "error", nil), channel)
		channel++
		store(parent, sys)
		parent = sys[0].V.(string)
	}
	d.op("", "add", sim.O("message", t.userMsg, "conversation_id", cid, "error", nil), channel)
	channel++
	store(parent, t.userMsg)
	d.data(sim.O("type", "input_message", "input_message", t.userMsg, "conversation_id", cid))
	parent = t.userMsg[0].V.(string)

	if t.sc.Name == sim.ScenarioConversationTooLong {
		d.data(sim.O("message", nil, "conversation_id", cid, "error", "You have reached the maximum length for this conversation.", "error_code", "conversation_too_large"))
		d.out("data: [DONE]\n\n")
		return
	}

	meta := func(extra ...any) sim.Obj {
		m := sim.O("model_slug", model, "resolved_model_slug", resolved, "default_model_slug", "auto", "parent_id", parent)
		for i := 0; i+1 < len(extra); i += 2 {
			m = append(m, sim.KV{K: extra[i].(string), V: extra[i+1]})
		}
		return m
	}

	// Thinking: thoughts on the analysis channel, a commentary preamble, a recap.
	if len(a.Thoughts) > 0 {
		id := sim.NewUUID()
		th := chatgptMessage(id, "assistant", "", sim.O("content_type", "thoughts", "thoughts", []any{sim.O("summary", "Thinking", "content", "", "chunks", []any{}, "finished", false)}, "source_analysis_msg_id", sim.NewUUID()),
			"in_progress", nil, meta(), "all", "analysis")
		d.op("", "add", sim.O("message", th, "conversation_id", cid, "error", nil), channel)
		channel++
		full := ""
		for _, tpart := range a.Thoughts {
			for _, c := range sim.Chunks(tpart+" ", pace.Chunk) {
				d.op("/message/content/thoughts/0/content", "append", c, -1)
				full += c
				if !sim.Sleep(ctx, pace.Interval) {
					return
				}
			}
		}
		d.op("", "patch", []any{sim.O("p", "/message/status", "o", "replace", "v", "finished_successfully")}, -1)
		th = chatgptMessage(id, "assistant", "", sim.O("content_type", "thoughts", "thoughts", []any{sim.O("summary", "Thinking", "content", full, "chunks", []any{}, "finished", true)}, "source_analysis_msg_id", sim.NewUUID()),
			"finished_successfully", nil, meta(), "all", "analysis")
		store(parent, th)
		parent = id

		cmID := sim.NewUUID()
		cm := chatgptMessage(cmID, "assistant", "", sim.O("content_type", "text", "parts", []string{""}), "in_progress", nil, meta(), "all", "commentary")
		d.op("", "add", sim.O("message", cm, "conversation_id", cid, "error", nil), channel)
		channel++
		d.streamText(ctx, "/message/content/parts/0", a.Commentary, pace, []sim.Obj{sim.O("p", "/message/status", "o", "replace", "v", "finished_successfully")}, 0)
		store(parent, chatgptMessage(cmID, "assistant", "", sim.O("content_type", "text", "parts", []string{a.Commentary}), "finished_successfully", false, meta(), "all", "commentary"))
		parent = cmID

		rrID := sim.NewUUID()
		rr := chatgptMessage(rrID, "assistant", "", sim.O("content_type", "reasoning_recap", "content", "Thought for 2s"), "finished_successfully", nil, meta(), "all", nil)
		d.op("", "add", sim.O("message", rr, "conversation_id", cid, "error", nil), channel)
		channel++
		store(parent, rr)
		parent = rrID
	}

	// Code mode: the assistant's code, the tool's execution_output.
	var mentionIDs []string
	if a.Code != "" {
		codeID := sim.NewUUID()
		cm := chatgptMessage(codeID, "assistant", "", sim.O("content_type", "code", "language", "unknown", "response_format_name", nil, "text", ""), "in_progress", false, meta(), "python", nil)
		d.op("", "add", sim.O("message", cm, "conversation_id", cid, "error", nil), channel)
		channel++
		if _, ok := d.streamText(ctx, "/message/content/text", a.Code, pace, []sim.Obj{sim.O("p", "/message/status", "o", "replace", "v", "finished_successfully")}, 0); !ok {
			return
		}
		store(parent, chatgptMessage(codeID, "assistant", "", sim.O("content_type", "code", "language", "unknown", "response_format_name", nil, "text", a.Code), "finished_successfully", false, meta(), "python", nil))
		parent = codeID

		toolID := sim.NewUUID()
		agg := sim.O("status", "success", "run_id", sim.NewUUID(), "start_time", float64(time.Now().Unix()), "update_time", float64(time.Now().Unix()),
			"code", a.Code, "end_time", float64(time.Now().Unix()), "final_expression_output", a.ExecOutput, "in_kernel_exception", nil,
			"system_exception", nil, "messages", []any{}, "jupyter_messages", []any{sim.O("msg_type", "execute_result", "parent_header", sim.O("msg_id", sim.NewUUID()), "content", sim.O("data", sim.O("text/plain", a.ExecOutput)))}, "timeout_triggered", nil)
		tm := chatgptMessage(toolID, "tool", "python", sim.O("content_type", "execution_output", "text", a.ExecOutput), "finished_successfully", nil,
			sim.O("is_complete", true, "aggregate_result", agg, "model_slug", model, "parent_id", parent), "all", nil)
		d.op("", "add", sim.O("message", tm, "conversation_id", cid, "error", nil), channel)
		channel++
		store(parent, tm)
		parent = toolID
		mentionIDs = append(mentionIDs, codeID, toolID)
		// The interpreter's result, then the model's quiet moment before
		// the final answer (param pause: a long one, the page still busy).
		if !sim.Sleep(ctx, max(pace.Interval, t.sc.Duration("pause", 0))) {
			return
		}
	}

	// Image generation: the tool's call and its images, then an empty
	// answer (or the refusal's words).
	if imageTurn(t) {
		text, ok := s.streamImages(ctx, d, t, &channel, &parent, meta, store)
		if !ok {
			return
		}
		a.Text, d.answer = text, text
	}

	// A research answers with an empty message that names it (the
	// report comes later, in frames: sim_research.go).
	research := researchTurn(t)
	if research {
		a.Text, d.answer = "", ""
	}

	// The final answer.
	aid := sim.NewUUID()
	var ch any
	if len(a.Thoughts) > 0 || a.Code != "" {
		ch = "final"
	}
	amMeta := meta()
	if t.search {
		amMeta = meta("citations", []any{}, "content_references", []any{}, "search_result_groups", []any{})
	}
	if research {
		amMeta = meta("chatgpt_sdk", sim.O("resource_name", ResearchResource, "widget_state", `{"status":"planning"}`))
	}
	am := chatgptMessage(aid, "assistant", "", sim.O("content_type", "text", "parts", []string{""}), "in_progress", nil, amMeta, "all", ch)
	d.op("", "add", sim.O("message", am, "conversation_id", cid, "error", nil), channel)
	d.data(sim.O("type", "message_marker", "conversation_id", cid, "message_id", aid, "marker", "user_visible_token", "event", "first"))

	cut := 0
	if t.sc.Name == sim.ScenarioStreamCut || t.sc.Name == sim.ScenarioError {
		cut = sim.CutIndex(t.sc, len(sim.Chunks(a.Text, pace.Chunk)))
	}
	sent, ok := d.streamText(ctx, "/message/content/parts/0", a.Text, pace, finishOps("finished_successfully", "stop"), cut)
	if !ok {
		store(parent, chatgptMessage(aid, "assistant", "", sim.O("content_type", "text", "parts", []string{sent}), "in_progress", nil, meta(), "all", ch))
		switch {
		case ctx.Err() != nil:
			// The reader went away (a closed tab, a killed browser): as on
			// chatgpt.com the answer goes on being generated and is stored
			// finished, unless stop_conversation stopped the turn, which
			// stores what was streamed as interrupted.
			left := len(sim.Chunks(a.Text, pace.Chunk)) - len(sim.Chunks(sent, pace.Chunk))
			go func() {
				// stop_conversation ends the generation at once, whenever
				// it comes while the answer is still being written.
				end := time.Now().Add(max(time.Duration(left)*pace.Interval, 300*time.Millisecond))
				for {
					if s.takeStop(cid) {
						store(parent, chatgptMessage(aid, "assistant", "", sim.O("content_type", "text", "parts", []string{sent}), "finished_successfully", nil,
							meta("finish_details", sim.O("type", "interrupted")), "all", ch))
						return
					}
					if !time.Now().Before(end) {
						break
					}
					time.Sleep(min(50*time.Millisecond, time.Until(end)))
				}
				s.recordAnswer(t, parent, aid, ch, a, model, meta, mentionIDs)
				if research {
					// The research goes on without its reader.
					s.startResearch(t, aid, parent, model)
				}
			}()
			return
		case t.sc.Name == sim.ScenarioError:
			d.data(sim.O("message", nil, "conversation_id", cid, "error", "Something went wrong. If this issue persists please contact us through our help center at help.openai.com.", "error_code", nil))
			d.out("data: [DONE]\n\n")
			return
		default:
			sim.AbortStream()
		}
	}
	first, title := s.recordAnswer(t, parent, aid, ch, a, model, meta, mentionIDs)
	if research {
		s.startResearch(t, aid, parent, model)
	}

	d.data(sim.O("type", "server_ste_metadata", "metadata", sim.O("conduit_prewarmed", false, "model_slug", "i-mini", "did_auto_switch_to_reasoning", false, "is_first_turn", first, "is_search", t.search), "conversation_id", cid))
	d.data(sim.O("type", "message_stream_complete", "conversation_id", cid))
	if first {
		d.data(sim.O("type", "title_generation", "title", title, "conversation_id", cid))
		// The user socket's conversations topic carries the news too.
		s.celsius.publish("conversations", sim.O("type", "conversation-update", "payload", sim.O("update_type", "title", "conversation_id", cid, "title", title)))
	}
	d.out("data: [DONE]\n\n")
}

// recordAnswer stores the finished answer aid of turn t (whether its reader
// stayed to the end or not) and reports whether it was the conversation's
// first turn, and the conversation's title.
func (s *simServer) recordAnswer(t chatgptTurn, parent, aid string, ch any, a sim.Answer, model string, meta func(...any) sim.Obj, mentionIDs []string) (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	md := meta("finish_details", sim.O("type", "stop", "stop_tokens", []any{200002}), "is_complete", true)
	if t.refs != nil {
		md = append(md, sim.KV{K: "content_references", V: t.refs})
	}
	t.conv.add(parent, chatgptMessage(aid, "assistant", "", sim.O("content_type", "text", "parts", []string{a.Text}), "finished_successfully", true, md, "all", ch))
	t.conv.Model = model
	for _, z := range a.Zips {
		t.conv.Sandbox["/mnt/data/"+z.Name] = &simSandboxFile{Spec: z, Messages: append([]string{aid}, mentionIDs...)}
	}
	t.conv.Expired = t.sc.Name == sim.ScenarioSandboxExpired
	t.conv.Forbid = t.sc.Name == sim.ScenarioEstuary403
	first := t.conv.Turns == 0
	t.conv.Turns++
	if first {
		t.conv.Title = "Sim: " + sim.PromptTopic(t.prompt)
	}
	return first, t.conv.Title
}
