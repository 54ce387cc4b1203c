package sim

// Drift lists, per site and role, the selectors of the drifted_dom scenario
// that replace the reference's; a settings override with these makes an
// adapter work again.
var Drift = map[string]map[string]string{
	ChatGPT: {
		"composer": "#composer-editor[contenteditable=\"true\"]",
		"send":     "button[data-testid=\"composer-send\"]:not([disabled])",
		"stop":     "button[data-testid=\"composer-halt\"]",
		"turn":     "article[data-testid^=\"chat-turn-\"]",
		"answer":   "[data-message-author-role=\"assistant\"] .prose-answer",
		"copy":     "button[data-testid=\"turn-copy\"]",
	},
	Gemini: {
		"composer": "rich-textarea .input-editor[contenteditable=\"true\"]",
		"send":     "button.submit-button[aria-label=\"Submit\"]",
		"answer":   "model-response message-content .response-markdown",
		"done":     "model-response .turn-footer.complete",
	},
	AIStudio: {
		"composer": "footer ms-input-box textarea",
		"send":     "footer ms-submit-button button[aria-disabled=\"false\"]",
	},
	Grok: {
		"composer": "div.editor-surface[contenteditable=\"true\"][aria-label=\"Message Grok\"]",
		"send":     "[data-testid=\"composer-submit\"]:not([disabled])",
		"stop":     "[data-testid=\"composer-stop\"]",
		"answer":   ".message-bubble .answer-markdown",
	},
	Claude: {
		"composer": "[contenteditable=\"true\"][data-testid=\"composer-input\"]",
		"send":     "button[data-testid=\"composer-send\"]:not([disabled])",
		"copy":     "[data-testid=\"turn-copy\"]",
	},
	Kimi: {
		"composer": ".prompt-editor[contenteditable=\"true\"]",
		"send":     ".submit-wrapper:not(.stop):not(.loading):not(.disabled)",
		"stop":     ".submit-wrapper.stop",
		"answer":   ".chat-content-item-assistant .answer-md",
	},
	DeepSeek: {
		"composer": "textarea[placeholder=\"Ask DeepSeek\"]",
		"send":     "[role=\"button\"].ds-btn--main:not(.ds-button--disabled)",
		"answer":   ".ds-assistant-message-main-content .ds-md",
	},
}
