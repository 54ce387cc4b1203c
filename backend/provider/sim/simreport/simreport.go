// Package simreport makes the simulator's research reports: the same
// prompt always gives the same report, so that a test anywhere can check a
// saved report against what a simulated site served, byte for byte.
package simreport

import "github.com/ferrydesk/ferry/backend/provider/sim"

// Report is the report of a research on prompt: its header line
// and its Markdown body (headings, paragraphs, lists, citations as links),
// as its frame shows them.
func Report(prompt string) (header, body string) {
	topic := sim.PromptTopic(prompt)
	header = "Research completed in 12m · 19 citations · 328 searches"
	body = "# " + topic + ": a research report\n\n" +
		"## Summary\n\n" +
		"Nineteen sources were read on " + topic + ". They agree on the main trend and differ on its causes [Harbour Authority](https://example.org/harbour/annual-report) and [Coastal Review](https://example.com/coastal/2026).\n\n" +
		"## Findings\n\n" +
		"- Traffic grew for the third year running [Port Statistics](https://example.net/stats/ports).\n" +
		"- Costs fell where the work was shared [Maritime Journal](https://example.org/journal/shared-work).\n" +
		"- The evidence on safety is thin.\n\n" +
		"## Sources\n\n" +
		"1. [Harbour Authority](https://example.org/harbour/annual-report)\n" +
		"2. [Coastal Review](https://example.com/coastal/2026)\n" +
		"3. [Port Statistics](https://example.net/stats/ports)"
	return header, body
}
