package sim_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simtest"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
)

const (
	gptComposer = `#prompt-textarea[contenteditable="true"]`
	gptSend     = `button[data-testid="send-button"]:not([disabled])`
	gptDone     = `[data-testid="copy-turn-action-button"]`
	gptAnswer   = `[data-conversation-role="assistant"] [data-markdown-text-style="assistant-message"]`
)

// openChatGPT resets the simulator and opens chatgpt.com in a fresh context.
func openChatGPT(t *testing.T) (*simtest.Env, *rod.Page) { return openChatGPTOn(t, "") }

// openChatGPTOn opens chatgpt.com as openChatGPT does, on page scenario
// scenario ("" for none) until the test ends.
func openChatGPTOn(t *testing.T, scenario string) (*simtest.Env, *rod.Page) {
	t.Helper()
	env := simtest.Shared(t)
	env.Server.Reset()
	if scenario != "" {
		env = withPageScenario(t, sim.ChatGPT, scenario, nil)
	}
	p := env.Page(t, sim.URL(sim.ChatGPT, "/"), 30*time.Second)
	waitExists(t, p, gptComposer, 5*time.Second)
	return env, p
}

// chatgptAsk types like a person and clicks send.
func chatgptAsk(t *testing.T, p *rod.Page, prompt string) {
	t.Helper()
	typeInsertText(t, p, "#prompt-textarea", prompt)
	waitExists(t, p, gptSend, 3*time.Second)
	clickTrusted(t, p, gptSend)
}

// answerText is the DOM answer of the last assistant turn without citation pills.
func answerText(p *rod.Page) string {
	return p.MustEval(`() => { const els = document.querySelectorAll('[data-conversation-role="assistant"] [data-markdown-text-style="assistant-message"]');
		const el = els[els.length-1];
		const pills = [...el.querySelectorAll('[data-testid="webpage-citation-pill"]')];
		pills.forEach(x => x.style.display = 'none');
		const text = el.innerText;
		pills.forEach(x => x.style.display = '');
		return text }`).Str()
}

func TestChatGPTScriptedUserSendsOnceAndSeesTheStreamedAnswer(t *testing.T) {
	env, p := openChatGPT(t)
	if exists(p, gptSend) {
		t.Fatal("send button is present before any input")
	}
	chatgptAsk(t, p, "What is Ferry?")
	waitExists(t, p, `[data-testid="stop-button"], `+gptDone, 3*time.Second)
	waitExists(t, p, gptDone, 10*time.Second)
	got := waitText(t, p, gptAnswer, 2*time.Second, contains("That is the whole answer."))
	if !strings.Contains(got, "What is Ferry?") {
		t.Errorf("answer %q does not mention the prompt", got)
	}
	subs := env.Server.Submissions(sim.ChatGPT)
	if len(subs) != 1 || subs[0].Prompt != "What is Ferry?" {
		t.Fatalf("submissions = %+v, want exactly one with the prompt", subs)
	}
	waitURL(t, p, "/c/"+subs[0].ConversationID, 5*time.Second)
	if n := env.Server.ConversationSubmissions(sim.ChatGPT, subs[0].ConversationID); n != 1 {
		t.Errorf("conversation submissions = %d, want 1", n)
	}
}

func TestChatGPTComposerAcceptsOnlyTypingItsFrameworkNotices(t *testing.T) {
	for _, tc := range []struct {
		name  string
		typer func(*testing.T, *rod.Page, string, string)
		sent  bool
	}{
		{"a click plus CDP insertText is noticed", typeInsertText, true},
		{"execCommand insertText is noticed", typeExecCommand, true},
		{"a textContent write without events is not noticed", func(t *testing.T, p *rod.Page, sel, text string) { typeNaive(t, p, sel, text) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, p := openChatGPT(t)
			tc.typer(t, p, "#prompt-textarea", "hello composer")
			time.Sleep(300 * time.Millisecond)
			if got := exists(p, gptSend); got != tc.sent {
				t.Fatalf("send button present = %v, want %v", got, tc.sent)
			}
			if !tc.sent {
				if txt := p.MustEval(`() => document.querySelector('#prompt-textarea').innerText.trim()`).Str(); txt != "" {
					t.Errorf("composer kept the foreign write %q; the editor re-renders from its state", txt)
				}
				p.MustElement("#prompt-textarea").MustClick()
				p.Keyboard.MustType(input.Enter)
				time.Sleep(300 * time.Millisecond)
				if n := env.Server.SubmissionCount(sim.ChatGPT); n != 0 {
					t.Fatalf("submissions = %d after a naive write and Enter, want 0", n)
				}
				return
			}
			clickTrusted(t, p, gptSend)
			waitExists(t, p, gptDone, 10*time.Second)
			subs := env.Server.Submissions(sim.ChatGPT)
			if len(subs) != 1 || subs[0].Prompt != "hello composer" {
				t.Fatalf("submissions = %+v, want one with the typed prompt", subs)
			}
		})
	}
}

func TestChatGPTStreamDecodedByReferenceDecoderEqualsDOM(t *testing.T) {
	for _, tc := range []struct {
		name, directive string
		model           string
	}{
		{"a normal answer", sim.Directive("normal", "chunk", "7", "interval", "3ms"), "gpt-5-6-thinking"},
		{"a thinking answer with commentary and citations", sim.Directive("thinking", "chunk", "5", "interval", "2ms"), "gpt-5-6-thinking"},
		{"a long answer over 100 KB", sim.Directive("long", "chunk", "1500", "interval", "1ms"), "gpt-5-6-thinking"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, p := openChatGPT(t)
			cap := captureStream(t, p, "/backend-api/f/conversation")
			chatgptAsk(t, p, "Tell me\n"+tc.directive)
			waitExists(t, p, gptDone, 20*time.Second)
			raw := cap.bytes(t)
			dec, err := refDecode(raw)
			if err != nil {
				t.Fatalf("decode stream: %v", err)
			}
			if !dec.Complete || !dec.Done {
				t.Fatalf("stream complete=%v done=%v, want both", dec.Complete, dec.Done)
			}
			dom := answerText(p)
			if strings.TrimSpace(dom) != strings.TrimSpace(dec.Answer) {
				t.Fatalf("DOM answer (%d chars) differs from decoded stream (%d chars)\nDOM: %.300q\nstream: %.300q", len(dom), len(dec.Answer), dom, dec.Answer)
			}
			if dec.ModelSlug != tc.model {
				t.Errorf("model slug %q, want %q", dec.ModelSlug, tc.model)
			}
			if id := p.MustEval(`() => [...document.querySelectorAll('[data-conversation-role="assistant"] [data-chatgpt-selection-message-id]')].pop().getAttribute('data-chatgpt-selection-message-id')`).Str(); id == "" || !strings.Contains(string(raw), `"id": "`+id+`"`) {
				t.Errorf("the answer's message id %q is not a message of the stream", id)
			}
			inherited := strings.Count(string(raw), "event: delta\ndata: {\"v\": ")
			if inherited == 0 {
				t.Error("the stream has no frames that inherit p and o; the inherit rule is not exercised")
			}
			if tc.name == "a thinking answer with commentary and citations" {
				if strings.Contains(dom, "Let me look that up") || strings.Contains(dom, "Considering") {
					t.Errorf("commentary or thoughts leaked into the DOM answer: %q", dom)
				}
				if !strings.Contains(string(raw), "\"channel\": \"commentary\"") || !strings.Contains(string(raw), "\ue200") {
					t.Error("thinking stream lacks the commentary channel or citation sentinels")
				}
			}
		})
	}
}

func TestChatGPTThreadIsVirtualised(t *testing.T) {
	env, p := openChatGPT(t)
	for i := 1; i <= 4; i++ {
		chatgptAsk(t, p, "question "+string(rune('0'+i)))
		waitText(t, p, `[data-turn-key]:last-child [data-conversation-role="assistant"]`, 10*time.Second, func(s string) bool { return true })
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && p.MustEval(`() => document.querySelectorAll('[data-testid="copy-turn-action-button"]').length`).Int() < min(i, 3) {
			time.Sleep(20 * time.Millisecond)
		}
		waitExists(t, p, `[data-turn-key]:last-child [data-testid="copy-turn-action-button"]`, 10*time.Second)
	}
	if n := env.Server.SubmissionCount(sim.ChatGPT); n != 4 {
		t.Fatalf("submissions = %d, want 4", n)
	}
	mounted := p.MustEval(`() => document.querySelectorAll('[data-turn-key]').length`).Int()
	if mounted != 6 {
		t.Fatalf("mounted turns = %d of 8, want 6", mounted)
	}
	if exists(p, `[data-content-search-unit-key="unit-1"]`) {
		t.Fatal("the first turn is still mounted")
	}
	p.MustEval(`() => { const t = document.getElementById('thread'); t.scrollTop = 0; t.dispatchEvent(new Event('scroll')); }`)
	waitExists(t, p, `[data-content-search-unit-key="unit-2"]`, 3*time.Second)
}

func TestModelPickersChangeTheModelTheAnswerProves(t *testing.T) {
	t.Run("chatgpt's slider moved to Instant by arrow keys makes the answer's model slug gpt-5-6-instant", func(t *testing.T) {
		_, p := openChatGPT(t)
		clickTrusted(t, p, `button[data-codex-intelligence-trigger="true"]`)
		slider := `[data-model-reasoning-effort-slider] [role="slider"]`
		waitExists(t, p, slider+`[aria-valuenow="2"]`, 5*time.Second)
		// A script's key does not move it; trusted keys do, a step at a time.
		p.MustEval(`(s) => document.querySelector(s).dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}))`, slider)
		for _, want := range []string{"1", "0"} {
			p.MustElement(slider).MustFocus()
			if err := p.Keyboard.Type(input.ArrowLeft); err != nil {
				t.Fatal(err)
			}
			waitExists(t, p, slider+`[aria-valuenow="`+want+`"]`, 5*time.Second)
		}
		if text := p.MustElement(`[data-testid="composer-model-picker-slider-simple-view"]`).MustText(); !strings.HasPrefix(text, "Instant, 1 of 5.") {
			t.Fatalf("the slider's text %q, want Instant, 1 of 5", text)
		}
		if err := p.Keyboard.Type(input.Escape); err != nil {
			t.Fatal(err)
		}
		cap := captureStream(t, p, "/backend-api/f/conversation")
		chatgptAsk(t, p, "which model?")
		waitExists(t, p, gptDone, 10*time.Second)
		if dec, err := refDecode(cap.bytes(t)); err != nil || dec.ModelSlug != "gpt-5-6-instant" {
			t.Fatalf("model slug %q (%v)", dec.ModelSlug, err)
		}
	})
	t.Run("gemini drops the first mode selection and honours the second", func(t *testing.T) {
		ui := siteUIs[0]
		_, p := openSite(t, ui)
		pick := func() {
			clickTrusted(t, p, `bard-mode-switcher button`)
			waitExists(t, p, `gem-menu [role="menuitem"]`, 2*time.Second)
			p.MustElementR(`gem-menu [role="menuitem"]`, `^Pro$`).MustClick()
		}
		pick()
		if label := p.MustElement(`bard-mode-switcher button`).MustAttribute("aria-label"); *label != "Open mode picker, currently Flash" {
			t.Fatalf("first selection was kept: %q", *label)
		}
		pick()
		if label := p.MustElement(`bard-mode-switcher button`).MustAttribute("aria-label"); *label != "Open mode picker, currently Pro" {
			t.Fatalf("second selection lost: %q", *label)
		}
		cap := captureStream(t, p, "/StreamGenerate")
		askSite(t, p, ui, "which model?")
		waitExists(t, p, ui.done, 10*time.Second)
		if raw := string(cap.bytes(t)); !strings.Contains(raw, `\"gemini-3-pro\"]`) {
			t.Fatalf("stream does not route to gemini-3-pro: %.200q", raw[len(raw)-200:])
		}
	})
}

func TestChatGPTANewChatShowsATransientAddressUntilItsTurnIsOver(t *testing.T) {
	for _, tc := range []struct {
		scenario, transient string
	}{
		{"", `/c/WEB:[0-9a-f-]{36}$`},
		{sim.ScenarioLocalChatURL, `/c/local-chatgpt%3A[0-9a-f]{32}$`},
	} {
		t.Run("transient "+tc.transient, func(t *testing.T) {
			env, p := openChatGPTOn(t, tc.scenario)
			chatgptAsk(t, p, "Where am I?")
			waitExists(t, p, gptDone, 10*time.Second)
			if u := p.MustInfo().URL; !regexp.MustCompile(tc.transient).MatchString(u) {
				t.Fatalf("a finished first turn shows %s, want the transient %s", u, tc.transient)
			}
			subs := env.Server.Submissions(sim.ChatGPT)
			if len(subs) != 1 || subs[0].ConversationID == "" {
				t.Fatalf("submissions %+v", subs)
			}
			waitURL(t, p, "/c/"+subs[0].ConversationID, 5*time.Second)
			// A second turn keeps the lasting address.
			chatgptAsk(t, p, "And now?")
			waitExists(t, p, `[data-content-search-unit-key="unit-4"] [data-conversation-role="assistant"]`, 5*time.Second)
			if u := p.MustInfo().URL; !strings.HasSuffix(u, "/c/"+subs[0].ConversationID) {
				t.Fatalf("a follow-up moved the address to %s", u)
			}
		})
	}
}

func TestChatGPTTurnMarkupIsTheNewestUnlessTheOlderIsAsked(t *testing.T) {
	newer := []string{`div[data-turn-key] [data-content-search-unit-key] [data-conversation-role="assistant"] [data-chatgpt-selection-message-id] [data-markdown-text-style="assistant-message"]`,
		`[data-conversation-role="user"] [data-chatgpt-selection-message-id]`}
	old := []string{`article[data-testid^="conversation-turn-"][data-turn="assistant"] [data-message-author-role="assistant"][data-message-id][data-message-model-slug] .markdown`,
		`[data-message-author-role="user"][data-message-id]`}
	for _, tc := range []struct {
		scenario      string
		shown, absent []string
	}{
		{"", newer, append(old, `[data-message-author-role]`, `[data-message-id]`, `[data-message-model-slug]`, `[data-is-streaming]`, `.markdown`)},
		{sim.ScenarioOlderTurns, old, append(newer, `[data-conversation-role]`, `[data-turn-key]`)},
	} {
		t.Run("scenario "+tc.scenario, func(t *testing.T) {
			_, p := openChatGPTOn(t, tc.scenario)
			chatgptAsk(t, p, "Which markup?")
			waitExists(t, p, gptDone, 10*time.Second)
			for _, sel := range tc.shown {
				if !exists(p, sel) {
					t.Errorf("%s is not on the page", sel)
				}
			}
			for _, sel := range tc.absent {
				if exists(p, sel) {
					t.Errorf("%s is on the page", sel)
				}
			}
		})
	}
}
