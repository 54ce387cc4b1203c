package sim_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simtest"
	"github.com/go-rod/rod/lib/proto"
)

func post(t *testing.T, site, path, ctype string, body []byte, hdr map[string]string) []byte {
	t.Helper()
	env := simtest.Shared(t)
	req, _ := http.NewRequest("POST", sim.URL(site, path), bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	req.AddCookie(env.Server.SessionCookie(site))
	resp, err := env.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
	}
	return b
}

func TestEachSiteStreamsItsRealWireFormat(t *testing.T) {
	simtest.Shared(t).Server.Reset()
	t.Run("gemini frames are length-prefixed in UTF-16 units after )]}'", func(t *testing.T) {
		freq, _ := json.Marshal([]any{nil, `[["Hi 🚢"],null,["","",""]]`})
		b := post(t, sim.Gemini, "/_/BardChatUi/data/assistant.lamda.BardFrontendService/StreamGenerate?rt=c", "application/x-www-form-urlencoded",
			[]byte("at=tok&f.req="+url.QueryEscape(string(freq))), nil)
		rest, ok := strings.CutPrefix(string(b), ")]}'\n\n")
		if !ok {
			t.Fatalf("no )]}' prefix: %.40q", b)
		}
		var last []any
		for rest != "" {
			nl := strings.IndexByte(rest, '\n')
			n, err := strconv.Atoi(rest[:nl])
			if err != nil {
				t.Fatalf("frame length %q", rest[:nl])
			}
			units := utf16.Encode([]rune(rest[nl+1:]))
			frame := string(utf16.Decode(units[:n]))
			rest = string(utf16.Decode(units[n:]))
			var env []any
			if err := json.Unmarshal([]byte(frame), &env); err != nil {
				t.Fatalf("frame %q: %v", frame, err)
			}
			if e, ok := env[0].([]any); ok && e[0] == "wrb.fr" {
				var body []any
				_ = json.Unmarshal([]byte(e[2].(string)), &body)
				last = body
			}
		}
		cand := last[4].([]any)[0].([]any)
		if cand[8].([]any)[0] != 2.0 || !strings.Contains(cand[1].([]any)[0].(string), "That is the whole answer.") || last[42] != "gemini-3-flash" {
			t.Fatalf("last candidate %v model %v", cand[:9], last[42])
		}
	})
	t.Run("grok streams NDJSON tokens ending with isSoftStop and modelResponse", func(t *testing.T) {
		b := post(t, sim.Grok, "/rest/app-chat/conversations/new", "application/json", []byte(`{"message":"hi"}`), nil)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		var soft, full bool
		text := ""
		for _, l := range lines {
			var f struct {
				Result struct {
					Response *struct {
						Token         *string
						IsSoftStop    bool
						ModelResponse *struct{ Message string }
					}
				}
			}
			if err := json.Unmarshal([]byte(l), &f); err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
			if r := f.Result.Response; r != nil {
				if r.Token != nil {
					text += *r.Token
				}
				soft = soft || r.IsSoftStop
				if r.ModelResponse != nil {
					full = r.ModelResponse.Message == text
				}
			}
		}
		if !soft || !full {
			t.Fatalf("soft stop %v, modelResponse equals tokens %v", soft, full)
		}
	})
	t.Run("claude streams content_block_delta SSE ending with message_stop", func(t *testing.T) {
		b := string(post(t, sim.Claude, "/api/organizations/o/chat_conversations/c/completion", "application/json", []byte(`{"prompt":"hi"}`), nil))
		if !strings.Contains(b, `"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`) || !strings.HasSuffix(b, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n") {
			t.Fatalf("claude stream %.300q", b)
		}
	})
	t.Run("claude ends a too-long conversation with an error event", func(t *testing.T) {
		b := string(post(t, sim.Claude, "/api/organizations/o/chat_conversations/c/completion", "application/json", []byte(`{"prompt":"[[sim:scenario=conversation_too_long]]"}`), nil))
		if !strings.Contains(b, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long\"}}") || strings.Contains(b, "message_stop") {
			t.Fatalf("claude too-long stream %.300q", b)
		}
	})
	t.Run("kimi answers in Connect envelopes with an end-of-stream frame", func(t *testing.T) {
		payload := []byte(`{"message":{"blocks":[{"text":{"content":"hi"}}]}}`)
		env := make([]byte, 5+len(payload))
		binary.BigEndian.PutUint32(env[1:], uint32(len(payload)))
		copy(env[5:], payload)
		b := post(t, sim.Kimi, "/apiv2/kimi.gateway.chat.v1.ChatService/Chat", "application/connect+json", env, nil)
		var flags []byte
		text := ""
		for len(b) > 0 {
			n := int(binary.BigEndian.Uint32(b[1:5]))
			var f struct {
				Op    string
				Block *struct{ Text struct{ Content string } }
			}
			_ = json.Unmarshal(b[5:5+n], &f)
			if f.Op == "append" && f.Block != nil {
				text += f.Block.Text.Content
			}
			flags = append(flags, b[0])
			b = b[5+n:]
		}
		if flags[len(flags)-1] != 2 || !strings.HasSuffix(text, "That is the whole answer.") {
			t.Fatalf("flags %v text %q", flags, text)
		}
	})
	t.Run("deepseek SSE starts with a BOM, uses CRLF and separates THINK from RESPONSE", func(t *testing.T) {
		b := string(post(t, sim.DeepSeek, "/api/v0/chat/completion", "application/json", []byte(`{"prompt":"[[sim:scenario=thinking]]","chat_session_id":"s"}`), map[string]string{"x-ds-pow-response": "x"}))
		if !strings.HasPrefix(b, "\ufeffevent: ready\r\n") || !strings.Contains(b, `"type":"THINK"`) || !strings.Contains(b, `"type":"RESPONSE"`) ||
			!strings.Contains(b, `{"p":"response/status","o":"SET","v":"FINISHED"}`) || !strings.Contains(b, "event: close\r\n") {
			t.Fatalf("deepseek stream %.400q", b)
		}
	})
}

// TestSimulatorAndBrowserStartAndServeTheFirstPage starts the simulator
// and a Chromium mapped to it and loads a ChatGPT composer. How fast is a
// figure, measured by BenchmarkSimulatorAndBrowserStart (docs/figures.md, goal
// < 3 s); this test holds only a bound that no loaded machine reaches but a
// start that hangs on something (a listener, a certificate, Chromium's
// launch) does.
func TestSimulatorAndBrowserStartAndServeTheFirstPage(t *testing.T) {
	// The package's shared Env measured its own start (certificate, listener,
	// Chromium launch and connection); add the first page to it.
	env := simtest.Shared(t)
	t0 := time.Now()
	p := env.Page(t, sim.URL(sim.ChatGPT, "/"), 20*time.Second)
	waitExists(t, p, gptComposer, 5*time.Second)
	firstPage := time.Since(t0)
	t.Logf("simulator + Chromium startup: %v; a fresh context's first ChatGPT page ready: %v", env.Startup, firstPage)
	if env.Startup > 30*time.Second {
		t.Errorf("startup took %v: something in it waits on a timeout", env.Startup)
	}
}

// BenchmarkSimulatorAndBrowserStart measures a cold start of the simulator
// plus a headless Chromium mapped to it, up to a loaded ChatGPT composer.
func BenchmarkSimulatorAndBrowserStart(b *testing.B) {
	for i := 0; i < b.N; i++ {
		env, err := simtest.Start()
		if err != nil {
			b.Fatal(err)
		}
		p, err := env.Browser.Page(proto.TargetCreateTarget{URL: sim.URL(sim.ChatGPT, "/")})
		if err != nil {
			b.Fatal(err)
		}
		p.MustElement(gptComposer)
		env.Close()
	}
}
