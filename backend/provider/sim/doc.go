// Package sim is Ferry's provider simulator: faithful local stand-ins for the
// AI chat sites, served together over HTTPS on one loopback port with a
// generated self-signed certificate. Chromium started with ChromiumFlags (host-resolver
// rules mapping the real hostnames to the port, every other name to
// NOTFOUND, plus --ignore-certificate-errors, and --test-type so that a
// headful window shows no "unsupported command-line flag" bar) loads every page at its real
// URL, so adapters see real origins and cookies. Package simtest launches
// such a Chromium for tests.
//
// The package is the server and what every site shares: the scenarios, the
// directive parser, the ledger of submissions, sessions, the Cloudflare gate
// and login pages, the answers and their pacing, the page shell and the
// shared page runtime (web/sim.js). Each site registers its stand-in — its
// host, handlers, page script, models and drifted selectors — with Register
// from its own folder (provider/<vendor>/sim.go and sim.js; provider/all
// links the seven built-in sites in), and the server answers for every
// registered site by its Host header. What more than one site could use
// stays here: code mode's sandbox zips (simzip/), bearer tokens
// (token.go), the ledger of minted download URLs, Python-style JSON
// (pyjson.go).
//
// It is built from the shared site reference (providers.md) and is meant to be as
// demanding as the real sites: editors ignore property writes made without
// the events their framework listens to, send controls appear or enable only
// after real input, answers stream at a configurable pace, and every failure
// the reference lists has a scenario.
//
// # Using it
//
//	srv := sim.New(sim.WithPace(6, 30*time.Millisecond))
//	err := srv.Start(ctx, "127.0.0.1:0")   // serves every registered site
//	flags := srv.ChromiumFlags()           // --host-resolver-rules=MAP chatgpt.com 127.0.0.1:PORT,... --ignore-certificate-errors --test-type
//	defer srv.Close()
//
// The index page (https://<any simulated host>/__sim/, or https://127.0.0.1:PORT/)
// lists the sites, the flags and the scenarios.
//
// # Choosing a scenario
//
//   - Per prompt: a directive line anywhere in the prompt,
//     "[[sim:scenario=code_zip zip_size=5MiB]]" (see Directive). Pace per prompt:
//     "chunk=200 interval=1ms". Turn scenarios only.
//   - Per site: POST /__sim/scenario on any simulated host with
//     {"site":"chatgpt","scenario":"rate_limit","params":{"lock":"30s"}}
//     ("site":"" = every site, "scenario":"normal" clears), or
//     Server.SetScenario / WithScenario in Go. Page scenarios (cloudflare,
//     logged_out, session_expired, slow_hydration, drifted_dom) are chosen
//     this way only; a turn scenario set this way applies to every prompt
//     without a directive.
//   - Per conversation: the same endpoint with "conversation":"ID" (or
//     Server.SetConversationScenario) applies a turn scenario to the later
//     prompts of that conversation only. The output-contract scenarios
//     (assess, assess_no_ruling, plan, plan_no_proof) chosen by a directive
//     do this themselves: the later steps of a contract chain carry no
//     directive, and each turn is answered by the contract its prompt asks
//     for (see contracts.go).
//   - Catalog lists every scenario and the sites that implement it.
//
// # Proving a prompt was sent once
//
// Every prompt that reaches a site's send endpoint is recorded, answered or
// refused: Server.Submissions(site), SubmissionCount, ConversationSubmissions,
// and GET /__sim/submissions?site=chatgpt&conversation=ID.
//
// # Fidelity checklist
//
// Each fact of providers.md, and where it is reproduced (Go handler / page
// script). "GAP" marks facts not reproduced. The cross-cutting facts are
// here; each site's checklist is the doc of SimSite in its folder
// (provider/<vendor>/sim.go), next to its handlers.
//
// Cross-cutting:
//   - Typing the framework notices: ProseMirror/Quill editors take state only
//     from input events and re-render foreign DOM writes away (web/sim.js
//     Sim.prose); React textareas drop `.value=` writes even with an input event
//     (value tracker) and need the prototype setter (Sim.reactTextarea); Lexical
//     reads trusted edits from the DOM and inserts the data of an untrusted input
//     event again, so an extra event after execCommand duplicates (Sim.lexical).
//   - Real click + focus + selection: Input.insertText lands where the selection
//     is (browser behaviour; the editors do not fake it).
//   - Long prompts (50 000+ chars) truncated on read-back: GAP.
//   - Trusted clicks; the rate-limit backdrop `fixed inset-0 z-50` covers the
//     page and swallows clicks (provider/chatgpt/internal/chatgptsim/sim.js rateLimitModal, Sim.dialog);
//     "a click accepted and ignored during re-render": GAP.
//   - Completion by network stream and by DOM markers (each site script).
//   - CDP capture pitfalls: streams are really chunked (flushed per frame) so a
//     capture needs Network.streamResourceContent; multibyte text (🚢, 日本語)
//     is split across chunks by bytes on the wire (answer.go normalText).
//   - WebKit/Chrome profile facts: not applicable to a server.
//   - A conversation's address shows its turns (transcript.go, rendered by
//     web/sim.js Sim.chat from the page's config): an answer whose reader went
//     away (a closed tab, a killed browser) goes on at its pace and is kept
//     finished unless the page's Stop stopped it, and a page opening the
//     conversation meanwhile shows it in progress until it is. The sites with
//     their own store (ChatGPT) do the same through their API; AI Studio keeps
//     its chats in the page only (Site.PageOnlyChats).
//
// GLM (chat.z.ai): not simulated (GAP; not one of the built-in sites).
//
// Every site: cloudflare, logged_out, slow_hydration (typing before hydration
// is wiped), drifted_dom (Drift lists the changed selectors), error,
// stream_cut (connection reset mid-answer), rate_limit and usage_cap (a
// [role="alert"] with time[datetime]; Claude: the 429 exceeded_limit body
// and a banner without a role), usage_cap_on_load (the cap notice on the
// page at load, every send refused), thinking where the site has it,
// inline_code and long. Toasts go away after 4 s, as sonner's do; renamed_send
// and legacy_stream where the site has them.
//
// Every site, for the end of an answer (providers.md, cross-cutting
// "Completion"): stable_i, pause_mid_answer and tool_phase hold the answer
// still for a while (param pause) and thinking pause=… holds it between the
// thinking and the answer; the page keeps its stop control and streaming
// marker meanwhile, and shows its finished-action bar only at the end.
//
// Every site, for stopping (stop.go): only the page's stop control (and
// ChatGPT's stop_conversation, which its control calls) stops a turn; a
// client that stops reading (Ferry's capture of a cancelled run) changes
// nothing, the page streams on with its stop control until the answer
// ends. Presses are counted (Server.StopPresses), and Server.RefuseStop
// (POST /__sim/stop {"site":…,"refuse":true}) makes a site's control do
// nothing, as a site that will not stop.
//
// DeepSeek also has two layouts for input that must not miss: tall_send (a
// tall send control whose centre is below the fold of a short window) and
// covered_send (a floating banner over the send control).
package sim
