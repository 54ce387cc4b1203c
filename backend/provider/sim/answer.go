package sim

import (
	"fmt"
	"strings"

	"github.com/ferrydesk/ferry/backend/provider/sim/simzip"
)

// Answer is what a site says to one prompt, before encoding for the wire.
type Answer struct {
	Thoughts   []string // reasoning shown only as thoughts, never the answer
	Commentary string   // ChatGPT commentary-channel preamble (not the answer)
	Text       string   // the final answer, Markdown
	Code       string   // code mode: the python the tool ran
	ExecOutput string   // code mode: the tool's execution_output text
	Zips       []simzip.Spec
	Model      string
}

// Citation sentinels used by ChatGPT around citation markers (U+E200..U+E202).
const (
	citeOpen  = "\ue200"
	citeSep   = "\ue202"
	citeClose = "\ue201"
)

// PromptTopic is the first line of prompt without directives, cut to 60
// characters: what answers and titles quote.
func PromptTopic(prompt string) string {
	p := strings.TrimSpace(directiveRE.ReplaceAllString(prompt, ""))
	if i := strings.IndexByte(p, '\n'); i >= 0 {
		p = p[:i]
	}
	r := []rune(p)
	if len(r) > 60 {
		r = append(r[:60], '…')
	}
	if len(r) == 0 {
		return "your question"
	}
	return string(r)
}

func normalText(prompt string) string {
	return fmt.Sprintf("Here’s what I found about “%s”.\n\n"+
		"The simulator streams this answer in small pieces, including multibyte text like naïve café, 日本語 and 🚢 emoji, so decoders must join bytes before decoding.\n\n"+
		"That is the whole answer.", PromptTopic(prompt))
}

func longText(prompt string, size int64) string {
	var b strings.Builder
	b.WriteString(fmt.Sprintf("A long answer about “%s”.", PromptTopic(prompt)))
	for i := 1; int64(b.Len()) < size; i++ {
		fmt.Fprintf(&b, "\n\nParagraph %d. Ferry must capture every byte of a long answer; this paragraph carries its number so a missing or duplicated piece is visible. Unicode check: ✓ — “quotes” — 🚢.", i)
	}
	b.WriteString("\n\nEnd of the long answer.")
	return b.String()
}

const inlinePython = "def greet(name):\n    return f\"Hello, {name}!\"\n\nprint(greet(\"Ferry\"))"
const inlineShell = "go test ./...\necho done"

func inlineCodeText(prompt string) string {
	return fmt.Sprintf("Here is code for “%s”.\n\n```python\n%s\n```\n\nAnd to run the tests:\n\n```bash\n%s\n```\n\nNo files were written.", PromptTopic(prompt), inlinePython, inlineShell)
}

// citedCodeText is the cited_code answer: sentences with citation markers
// (on sites whose answers carry them) around a fenced code block.
func citedCodeText(site, prompt string) string {
	cite := func(ref string) string { return "" }
	if st, _ := lookup(site); st.Citations {
		cite = func(ref string) string { return citeOpen + "cite" + citeSep + ref + citeClose }
	}
	return fmt.Sprintf("About “%s”, the documented way%s:\n\n```python\n%s\n```\n\nIt prints the greeting.%s", PromptTopic(prompt), cite("turn0search1"), inlinePython, cite("turn0search3"))
}

// AnswerFor builds the answer of site to prompt under scenario sc.
func AnswerFor(site string, sc Scenario, prompt string) Answer {
	a := Answer{Model: defaultModel(site)}
	switch sc.Name {
	case ScenarioLong:
		a.Text = longText(prompt, sc.Size("size", 110<<10))
	case ScenarioInlineCode:
		a.Text = inlineCodeText(prompt)
	case ScenarioStableI:
		a.Text = stableIText(prompt)
	case ScenarioToolPhase:
		a.Text = toolPreamble + normalText(prompt)
	case ScenarioCitedCode:
		a.Text = citedCodeText(site, prompt)
	case ScenarioThinking:
		a.Model = thinkingModel(site)
		a.Thoughts = []string{"Considering what the user asks about " + PromptTopic(prompt) + ".", "Checking a source before answering."}
		a.Commentary = "Let me look that up."
		a.Text = "After thinking it over: the answer is 42." + citeOpen + "cite" + citeSep + "turn0search2" + citeClose + " It is well documented." + citeOpen + "cite" + citeSep + "turn0search5" + citeClose + "\n\nThinking text never belongs in the answer."
		if st, _ := lookup(site); !st.Citations {
			a.Text = "After thinking it over: the answer is 42. It is well documented.\n\nThinking text never belongs in the answer."
		}
	case ScenarioAssess, ScenarioAssessNoRuling, ScenarioPlan, ScenarioPlanNoProof, ScenarioByContract:
		return contractAnswer(site, sc, prompt)
	case ScenarioCodeZip, ScenarioMultiZip, ScenarioSandboxExpired, ScenarioEstuary403,
		ScenarioZipBadCRC, ScenarioZipTruncated, ScenarioZipSlip, ScenarioZipBomb, ScenarioZipSymlink:
		if st, _ := lookup(site); st.CodeModel != "" {
			a = codeModeAnswer(sc, prompt)
			a.Model = st.CodeModel
			return a
		}
		a.Text = inlineCodeText(prompt)
	default:
		a.Text = normalText(prompt)
	}
	return a
}

func codeModeAnswer(sc Scenario, prompt string) Answer {
	kind := map[string]string{
		ScenarioZipBadCRC: simzip.BadCRC, ScenarioZipTruncated: simzip.Truncated, ScenarioZipSlip: simzip.Slip,
		ScenarioZipBomb: simzip.Bomb, ScenarioZipSymlink: simzip.Symlink,
	}[sc.Name]
	if kind == "" {
		kind = simzip.Good
	}
	n := 1
	if sc.Name == ScenarioMultiZip {
		n = sc.Int("zips", 3)
	}
	size := sc.Size("zip_size", 0)
	var zips []simzip.Spec
	for i := 1; i <= n; i++ {
		name := "project.zip"
		if n > 1 {
			name = fmt.Sprintf("project-part%d.zip", i)
		}
		zips = append(zips, simzip.Spec{Name: name, Kind: kind, Size: size, Seed: int64(i)})
	}
	var code, out, text strings.Builder
	code.WriteString("import os, zipfile\nos.makedirs('/mnt/data', exist_ok=True)\n")
	for _, z := range zips {
		fmt.Fprintf(&code, "with zipfile.ZipFile('/mnt/data/%s', 'w') as zf:\n    zf.writestr('README.md', '# %s')\n", z.Name, z.Name)
	}
	last := "/mnt/data/" + zips[len(zips)-1].Name
	fmt.Fprintf(&code, "'%s'", last)
	fmt.Fprintf(&out, "'%s'", last)
	fmt.Fprintf(&text, "I built the project for “%s” in the sandbox.\n\n", PromptTopic(prompt))
	for i, z := range zips {
		if i == 1 {
			fmt.Fprintf(&text, ":chatgpt-content-reference{index=\"9\"}[Download %s](sandbox:/mnt/data/%s)\n\n", z.Name, z.Name)
			continue
		}
		fmt.Fprintf(&text, "[Download %s](sandbox:/mnt/data/%s)\n\n", z.Name, z.Name)
	}
	text.WriteString("Paths:\n\n")
	for _, z := range zips {
		fmt.Fprintf(&text, "/mnt/data/%s\n", z.Name)
	}
	return Answer{Code: code.String(), ExecOutput: out.String(), Text: strings.TrimRight(text.String(), "\n"), Zips: zips}
}

// defaultModel is the model that answers site's prompts (the site id for
// a site that is not registered).
func defaultModel(site string) string {
	if st, ok := lookup(site); ok && st.DefaultModel != "" {
		return st.DefaultModel
	}
	return site
}

// thinkingModel is the model that answers site's thinking scenario.
func thinkingModel(site string) string {
	if st, ok := lookup(site); ok && st.ThinkingModel != "" {
		return st.ThinkingModel
	}
	return defaultModel(site)
}

// Chunks splits s into pieces of n runes (never splitting a rune).
func Chunks(s string, n int) []string {
	if n <= 0 {
		n = 1
	}
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		k := min(n, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}
