// Package sim is Ferry's provider simulator: faithful local stand-ins for the
// AI chat sites, served together over HTTPS on one loopback port with a
// generated self-signed certificate. Chromium started with ChromiumFlags (host-resolver
// rules mapping the real hostnames to the port, every other name to
// NOTFOUND, plus --ignore-certificate-errors) loads every page at its real
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
// registered site by its Host header. ChatGPT's stand-in is the exception
// that still lives here (chatgpt*.go, web/chatgpt.js, zips.go, bigzip.go,
// token.go): its conversations, sandbox zips, estuary downloads and access
// tokens are Server state and API that tests across Ferry use.
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
//	flags := srv.ChromiumFlags()           // --host-resolver-rules=MAP chatgpt.com 127.0.0.1:PORT,... --ignore-certificate-errors
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
// script). "GAP" marks facts not reproduced. The cross-cutting facts and
// ChatGPT's are here; every other site's checklist is the doc of SimSite in
// its folder (provider/<vendor>/sim.go), next to its handlers.
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
//     page and swallows clicks (web/chatgpt.js rateLimitModal, Sim.dialog);
//     "a click accepted and ignored during re-render": GAP.
//   - Completion by network stream and by DOM markers (each site script).
//   - CDP capture pitfalls: streams are really chunked (flushed per frame) so a
//     capture needs Network.streamResourceContent; multibyte text (🚢, 日本語)
//     is split across chunks by bytes on the wire (answer.go normalText).
//   - WebKit/Chrome profile facts: not applicable to a server.
//
// ChatGPT (chatgpt.go, chatgpt_stream.go, chatgpt_conv.go, web/chatgpt.js):
//   - div#prompt-textarea[contenteditable].ProseMirror with
//     p[data-placeholder="Ask anything"].placeholder; hidden
//     textarea[name="prompt-textarea"] earlier; form[data-type="unified-composer"];
//     logged out: textarea#mobile-composer-prompt. Old selectors
//     textarea[data-id=…]/[placeholder*="Send a message"]: not rendered (current DOM).
//   - send button[data-testid="send-button"][aria-label="Send prompt"]
//     (#composer-submit-button) exists only while the composer has text.
//   - stop [data-testid="stop-button"] while streaming; read-aloud and voice
//     buttons carry no "stop" label; [data-is-streaming="true"],
//     [aria-busy="true"][data-message-author-role="assistant"], span.loading-shimmer.
//   - turns article[data-testid^="conversation-turn-"][data-turn],
//     [data-message-author-role][data-message-id], data-message-model-slug,
//     .markdown; request-placeholder- ids until the server id arrives;
//     virtualised thread: 6 turns mounted, older ones mount on scroll to top.
//   - code blocks pre › div.contain-inline-size › sticky header (language,
//     "Copy code") › div.overflow-y-auto › code.whitespace-pre! language-<lang>.
//   - finished-action bar copy-turn-action-button, good/bad-response,
//     aria-label="Share".
//   - model picker [data-testid="model-switcher-dropdown-button"] (also
//     form button[aria-haspopup="menu"].composer-pill), items
//     [role="menuitem"][data-testid^="model-switcher-"], effort
//     [role="slider"][aria-valuenow] (static: GAP for effort semantics).
//   - input#upload-files (multiple, no accept), composer-plus-btn; uploads
//     (POST /backend-api/files, PUT, process_upload_stream): GAP.
//   - logged in: accounts-profile-button, history-item-N,
//     a[data-testid="create-new-chat-button"]; logged out: a[href*="/auth/login"],
//     "Log in", "Sign up for free", anonymous answers from gpt-5-mini via
//     /backend-anon/f/conversation. Login on auth.openai.com: GAP (login page
//     is chatgpt.com/auth/login).
//   - POST /backend-api/f/conversation with prepare (conduit_token) and
//     sentinel/chat-requirements first; request body fields as in the reference.
//   - SSE delta encoding v1 exactly as captured: event delta_encoding "v1",
//     resume_conversation_token, add frames with c, input_message,
//     message_marker, append with the inherit rule (frames without p/o),
//     patch frames batching append/replace/metadata, server_ste_metadata
//     (i-mini), message_stream_complete, title_generation, [DONE]; frames are
//     written Python-style (", " and ": " separators, raw non-ASCII)
//     (chatgpt_stream.go deltaEncoder, pyjson.go).
//   - channels: system, user, tool code (recipient python), execution_output,
//     thoughts (analysis), commentary text, reasoning_recap, final; citations
//     U+E200…U+E202 around cite markers (scenario thinking).
//   - completion: status finished_successfully, end_turn, finish_details stop;
//     stop_conversation endpoint; an aborted stream is stored as interrupted.
//     Stream handoff to a websocket: GAP.
//   - stream errors: {"message":null,…,"error":…,"error_code":"conversation_too_large"}
//     (the {"type":"error",…} variant: GAP); "Something went wrong…" frame.
//   - conversation_detail_metadata.limits_progress in the conversation JSON.
//   - model proof: metadata.model_slug/resolved_model_slug = the requested
//     model (auto → gpt-5-2; thinking → gpt-5-6-thinking), DOM
//     data-message-model-slug; server_ste_metadata carries i-mini.
//   - /api/auth/session: user, expires, accessToken (HS256 JWT with exp),
//     authProvider; no cookie → {} (token.go, chatgpt.go chatgptSession).
//   - backend-api requires the bearer: cookie-only → 401 "Unauthorized -
//     Access token is missing"; expired → 401 token_expired (chatgptBearer).
//     oai-device-id is sent by the page but not checked; Chatgpt-Account-Id: GAP.
//   - 403 cf-mitigated: challenge on backend-api under the cloudflare scenario.
//   - GET /backend-api/conversation/<id>: mapping tree from client-created-root,
//     current_node, messages with author/content/status/end_turn/metadata/
//     recipient/channel, content types text, code, execution_output, thoughts,
//     reasoning_recap; aggregate_result with final_expression_output repr;
//     429 during the rate-limit lock. multimodal_text and "Code execution
//     state reset." cancelled outputs: GAP.
//   - sandbox paths in final text as [label](sandbox:/mnt/data/x.zip), wrapped
//     :chatgpt-content-reference{index="9"}[…](sandbox:…), plain paths, and the
//     repr in execution_output/final_expression_output; DOM button.behavior-btn
//     (no href, no download) whose click fetches the bytes in page. Links in
//     tables: GAP.
//   - interpreter/download (bearer; message must hold the path) → success with
//     an estuary download_url (id=file_<32hex>&ts&p=fs&cid=1&sig=<64hex>&v=0);
//     ace_pod_expired 404 (sandbox_expired). /backend-api/sandbox/download and
//     /backend-api/files/{id}/download: GAP.
//   - estuary: cookie-bound (403 without the session cookie), signed (403 on a
//     bad sig or after WithEstuaryTTL), filename in content-disposition, Range
//     support; zips are deterministic (zips.go, bigzip.go: up to 200 MiB
//     generated on demand, never held in memory).
//   - interstitials: Cloudflare page (title "Just a moment...", #challenge-form,
//     #challenge-running, cf-challenge class, iframe /cdn-cgi/challenge-platform/,
//     body text "needs to review the security of your connection", solvable by
//     its checkbox) and the weak-evidence challenge script on normal pages
//     (the Head of its Site in chatgpt.go); "Too many requests" dialog with "Got it", reappearing during
//     the lock; "You've reached the maximum length…" in
//     .text-token-text-error with "Start new chat"; usage cap "You’ve hit the
//     Free plan limit… resets after <time datetime>" with New chat/Upgrade in
//     [role="alert"]; "Your session has expired. Please log in again…" dialog;
//     "Something went wrong…" and "A network error occurred…" with
//     regenerate-thread-error-button. "Suspicious activity detected",
//     "Message delivery timed out", "Connection interrupted", "Answer now": GAP.
//
// GLM (chat.z.ai): not simulated (GAP; not one of the built-in sites).
//
// Every site: cloudflare, logged_out, slow_hydration (typing before hydration
// is wiped), drifted_dom (Drift lists the changed selectors), error,
// stream_cut (connection reset mid-answer), rate_limit and usage_cap (a
// [role="alert"] with time[datetime]), thinking where the site has it,
// inline_code and long.
package sim
