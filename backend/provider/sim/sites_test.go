package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simtest"
	"github.com/go-rod/rod"
)

// siteUI is what a scripted user needs to know of a site: the reference's
// selectors and the way its composer must be fed.
type siteUI struct {
	site     string
	path     string
	composer string
	typer    func(*testing.T, *rod.Page, string, string)
	send     string // the send control when it accepts a click
	done     string // completion marker of the last turn
	answer   string // the answer body (last match)
	stop     string // stop control while streaming
}

var siteUIs = []siteUI{
	{sim.Gemini, "/app", `rich-textarea .ql-editor[contenteditable="true"]`, typeExecCommand,
		`button.send-button[aria-label="Send message"]`, `model-response .response-footer.complete`, `model-response message-content .markdown`, `button[aria-label="Stop response"]`},
	{sim.AIStudio, "/prompts/new_chat?model=gemini-3-pro-preview", `footer ms-prompt-box textarea[formcontrolname="promptText"]`, typeNativeSetter,
		`footer ms-run-button button[aria-disabled="false"]`, `ms-chat-turn .turn-footer button[iconname="thumb_up"]`, `ms-chat-turn ms-text-chunk`, ``},
	{sim.Grok, "/", `div.tiptap.ProseMirror[contenteditable="true"]`, typeInsertText,
		`[data-testid="chat-submit"]:not([disabled])`, `div.action-buttons`, `.message-bubble .response-content-markdown`, `[data-testid="chat-stop"]`},
	{sim.Claude, "/new", `[contenteditable="true"][aria-label="Write your prompt to Claude"]`, typeExecCommand,
		`button[aria-label="Send message"]:not([disabled])`, `div[data-test-render-count]:last-child > div > div:nth-child(2) button:first-child`, `div[class*="font-claude-response"] .standard-markdown`, `button[aria-label="Stop response"]`},
	{sim.Kimi, "/", `.chat-input-editor[contenteditable="true"][data-lexical-editor="true"]`, typeExecCommand,
		`.send-button-container:not(.stop):not(.loading):not(.disabled)`, `.segment-assistant-actions`, `.chat-content-item-assistant .markdown`, `.send-button-container.stop`},
	{sim.DeepSeek, "/", `textarea[placeholder='Message DeepSeek']`, typeNativeSetter,
		`[role='button'].ds-button--primary.ds-button--circle:not(.ds-button--disabled)`, `[data-virtual-list-item-key]:last-child [role='button'][aria-label='Read aloud']`, `.ds-assistant-message-main-content .ds-markdown`, ``},
}

func openSite(t *testing.T, ui siteUI) (*simtest.Env, *rod.Page) {
	t.Helper()
	env := simtest.Shared(t)
	env.Server.Reset()
	p := env.Page(t, sim.URL(ui.site, ui.path), 30*time.Second)
	waitExists(t, p, ui.composer, 5*time.Second)
	return env, p
}

func askSite(t *testing.T, p *rod.Page, ui siteUI, prompt string) {
	t.Helper()
	ui.typer(t, p, ui.composer, prompt)
	waitExists(t, p, ui.send, 3*time.Second)
	clickTrusted(t, p, ui.send)
}

func TestEachSiteScriptedUserTypesSendsAndSeesTheStreamedAnswer(t *testing.T) {
	for _, ui := range siteUIs {
		t.Run(ui.site+" ignores a naive write, then answers a prompt typed the way its editor needs", func(t *testing.T) {
			env, p := openSite(t, ui)
			typeNaive(t, p, ui.composer, "naive text")
			time.Sleep(250 * time.Millisecond)
			if ui.site == sim.Gemini {
				// Gemini's button is always enabled: a click must send nothing.
				clickTrusted(t, p, ui.send)
				time.Sleep(250 * time.Millisecond)
			} else if exists(p, ui.send) {
				t.Fatalf("send control %s is active after a naive write", ui.send)
			}
			if n := env.Server.SubmissionCount(ui.site); n != 0 {
				t.Fatalf("submissions = %d after a naive write, want 0", n)
			}

			askSite(t, p, ui, "Hello "+ui.site+"\n"+sim.Directive("normal", "chunk", "9", "interval", "8ms"))
			if ui.stop != "" {
				waitExists(t, p, ui.stop+", "+ui.done, 3*time.Second)
			}
			waitExists(t, p, ui.done, 10*time.Second)
			got := waitText(t, p, ui.answer, 2*time.Second, contains("That is the whole answer."))
			if !strings.Contains(got, "Hello "+ui.site) || !strings.Contains(got, "🚢") {
				t.Errorf("answer %q", got)
			}
			subs := env.Server.Submissions(ui.site)
			if len(subs) != 1 || !strings.HasPrefix(subs[0].Prompt, "Hello "+ui.site) {
				t.Fatalf("submissions = %+v, want exactly one with the prompt", subs)
			}
		})
	}
}

func TestKimiDuplicatesTextOnAnExtraInputEvent(t *testing.T) {
	ui := siteUIs[4]
	env, p := openSite(t, ui)
	p.MustElement(ui.composer).MustClick()
	p.MustEval(`(sel) => { const el = document.querySelector(sel); el.focus();
		document.execCommand('insertText', false, 'abc');
		el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertText', data: 'abc'})); }`, ui.composer)
	waitText(t, p, ui.composer, 2*time.Second, func(s string) bool { return strings.TrimSpace(s) == "abcabc" })
	clickTrusted(t, p, ui.send)
	waitExists(t, p, ui.done, 10*time.Second)
	if subs := env.Server.Submissions(sim.Kimi); len(subs) != 1 || subs[0].Prompt != "abcabc" {
		t.Fatalf("submissions %+v, want the duplicated prompt abcabc", subs)
	}
}

func TestDeepSeekDropsAValueWriteEvenWithAnInputEvent(t *testing.T) {
	ui := siteUIs[5]
	env, p := openSite(t, ui)
	p.MustEval(`(sel) => { const el = document.querySelector(sel); el.value = 'x'; el.dispatchEvent(new Event('input', {bubbles: true})); }`, ui.composer)
	time.Sleep(200 * time.Millisecond)
	if exists(p, ui.send) || env.Server.SubmissionCount(sim.DeepSeek) != 0 {
		t.Fatal("React noticed a .value write; its value tracker must drop it")
	}
}
