// Package research follows a ChatGPT Deep Research in its tab (the
// providers reference, "Tools"): the stage of its plan and research, the
// plan's "Start" when asked, and its report once done, read as Markdown
// from the report's frames through the DevTools target auto-attach. It
// only reads what the site shows: scripts that read a document, the rules
// that judge their results (research.go), and the loop that follows them
// (follow.go).
package research

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/artifact"
)

// FrameHost is the part of a report frame's address that tells it.
const FrameHost = "connector_openai_deep_research"

// MinReport is how much report, after its header, makes it one.
const MinReport = 40

// Page is what the page shows of a research: the last assistant
// turn's words, and whether it offers the plan's "Start" (tagged for a
// trusted click when asked).
type Page struct {
	Text  string `json:"text"`
	Start bool   `json:"start"`
}

const PageJS = `(tag) => {
  const turns = document.querySelectorAll('[data-conversation-role="assistant"], [data-message-author-role="assistant"]');
  const turn = turns[turns.length - 1];
  if (!turn) return {text: '', start: false};
  for (const el of document.querySelectorAll('[data-ferry-research]')) el.removeAttribute('data-ferry-research');
  const start = Array.from(turn.querySelectorAll('button')).find((b) =>
    /^start( research)?$/i.test((b.getAttribute('aria-label') || b.innerText || '').trim()) && !b.disabled);
  if (tag && start) start.setAttribute('data-ferry-research', '1');
  return {text: (turn.innerText || '').replace(/\s+/g, ' ').trim(), start: !!start};
}`

// Frame is what a report frame holds: its text (nested frames it
// can reach too) and its blocks as Markdown.
type Frame struct {
	Text   string   `json:"text"`
	Blocks []string `json:"blocks"`
}

// FrameJS reads a frame's document as Markdown blocks (headings,
// paragraphs, lists, links) without running anything of its own; frames
// nested in it that it may reach are read too.
const FrameJS = `() => {
  const texts = [];
  const blocks = [];
  const kids = (n) => Array.from(n.childNodes).map(inline).join('');
  const inline = (n) => {
    if (n.nodeType === 3) return n.nodeValue;
    if (n.nodeType !== 1) return '';
    switch (n.tagName) {
      case 'A': { const href = n.getAttribute('href') || ''; const t = kids(n).trim(); return href && !href.startsWith('#') ? '[' + t + '](' + href + ')' : t; }
      case 'STRONG': case 'B': return '**' + kids(n) + '**';
      case 'EM': case 'I': return '*' + kids(n) + '*';
      case 'CODE': return '` + "`" + `' + n.textContent + '` + "`" + `';
      case 'BR': return '\n';
      case 'SCRIPT': case 'STYLE': return '';
    }
    return kids(n);
  };
  const walk = (root) => {
    for (const c of root.children) {
      const tag = c.tagName;
      if (/^H[1-6]$/.test(tag)) blocks.push('#'.repeat(+tag[1]) + ' ' + kids(c).trim());
      else if (tag === 'UL') blocks.push(Array.from(c.children).map((li) => '- ' + kids(li).trim()).join('\n'));
      else if (tag === 'OL') blocks.push(Array.from(c.children).map((li, i) => (i + 1) + '. ' + kids(li).trim()).join('\n'));
      else if (tag === 'PRE') blocks.push('` + "```" + `\n' + c.textContent.replace(/\n$/, '') + '\n` + "```" + `');
      else if (tag === 'IFRAME') { try { const d = c.contentDocument; if (d && d.body) read(d); } catch (e) {} }
      else if (tag === 'SCRIPT' || tag === 'STYLE') {}
      else if (tag === 'P' || c.children.length === 0 || !Array.from(c.children).some((k) => /^(P|DIV|H[1-6]|UL|OL|PRE|IFRAME|ARTICLE|SECTION)$/.test(k.tagName))) {
        const t = kids(c).trim();
        if (t) blocks.push(t);
      } else walk(c);
    }
  };
  const read = (doc) => { texts.push(doc.body.innerText || ''); walk(doc.body); };
  if (document.body) read(document);
  return {text: texts.join('\n'), blocks};
}`

var (
	doneRe   = regexp.MustCompile(`(?i)research completed`)
	countsRe = regexp.MustCompile(`(?i)(\d+)\s+citations?.*?(\d+)\s+searches`)
	sourceRe = regexp.MustCompile(`(?i)(\d+)\s+sources`)
	planRe   = regexp.MustCompile(`(?i)research plan|starting research|start research`)
	runRe    = regexp.MustCompile(`(?i)researching|reading sources|searching|considering`)
	countRe  = regexp.MustCompile(`(?i)starting research in (\d+)\s*s`)
)

// Report is the report a frame holds once it is done: "Research
// completed" in its text, and enough report after the header block.
func (f Frame) Report() (*artifact.Report, bool) {
	if !doneRe.MatchString(f.Text) {
		return nil, false
	}
	for i, b := range f.Blocks {
		if !doneRe.MatchString(b) {
			continue
		}
		body := strings.TrimSpace(strings.Join(f.Blocks[i+1:], "\n\n"))
		if utf8.RuneCountInString(body) < MinReport || stubOnly(body) {
			return nil, false
		}
		r := &artifact.Report{Markdown: body, Header: b}
		if first := f.Blocks[i+1]; strings.HasPrefix(first, "# ") {
			r.Title = strings.TrimSpace(first[2:])
		}
		if m := countsRe.FindStringSubmatch(b); m != nil {
			r.Citations, _ = strconv.Atoi(m[1])
			r.Searches, _ = strconv.Atoi(m[2])
		}
		return r, true
	}
	return nil, false
}

// stubOnly reports whether text is a tool stub and no more.
func stubOnly(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	return strings.HasPrefix(t, "called tool") || strings.HasPrefix(t, "used tool")
}

// Stage is the stage a research's page shows, in a few words
// ("planning, starts in 40s", "researching, 120 sources"), and whether it
// is still the plan.
func Stage(text string) (stage string, planning bool) {
	sources := ""
	if m := sourceRe.FindStringSubmatch(text); m != nil {
		sources = ", " + m[1] + " sources"
	}
	switch {
	case doneRe.MatchString(text):
		return "completed, reading the report" + sources, false
	case runRe.MatchString(text):
		return "researching" + sources, false
	case planRe.MatchString(text):
		if m := countRe.FindStringSubmatch(text); m != nil {
			return "planning, starts in " + m[1] + "s", true
		}
		return "planning", true
	}
	return "waiting for the research", true
}

// Sources is the count of sources text names, 0 when it names none.
func Sources(text string) int {
	if m := sourceRe.FindStringSubmatch(text); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// Planned reports whether text shows a research plan.
func Planned(text string) bool { return planRe.MatchString(text) }
