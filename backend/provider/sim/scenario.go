package sim

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Scenario selects how a site behaves: Name is one of the Scenario* constants,
// Params tune it (zip_size, zips, chunk, interval, hydrate, cut_at, lock, ...).
type Scenario struct {
	Name   string            `json:"scenario"`
	Params map[string]string `json:"params,omitempty"`
}

// The scenarios. Page scenarios change how pages load and are chosen per site
// through the admin endpoint (or WithScenario); turn scenarios change how one
// prompt is answered and can also be chosen by a directive in the prompt.
const (
	ScenarioNormal              = "normal"
	ScenarioLong                = "long"
	ScenarioThinking            = "thinking"
	ScenarioInlineCode          = "inline_code"
	ScenarioCitedCode           = "cited_code"
	ScenarioCodeZip             = "code_zip"
	ScenarioMultiZip            = "multi_zip"
	ScenarioSandboxExpired      = "sandbox_expired"
	ScenarioEstuary403          = "estuary_403"
	ScenarioZipBadCRC           = "zip_bad_crc"
	ScenarioZipTruncated        = "zip_truncated"
	ScenarioZipSlip             = "zip_slip"
	ScenarioZipBomb             = "zip_bomb"
	ScenarioZipSymlink          = "zip_symlink"
	ScenarioRateLimit           = "rate_limit"
	ScenarioConversationTooLong = "conversation_too_long"
	ScenarioUsageCap            = "usage_cap"
	ScenarioError               = "error"
	ScenarioStreamCut           = "stream_cut"
	ScenarioStableI             = "stable_i"
	ScenarioPauseMidAnswer      = "pause_mid_answer"
	ScenarioToolPhase           = "tool_phase"
	// ScenarioAntiBot refuses the send as the site's anti-bot layer does
	// (Grok: HTTP 403 {"code":7,"message":"Request rejected by anti-bot
	// rules."}).
	ScenarioAntiBot = "anti_bot"
	// ScenarioErrorInfo fails the turn after a partial answer with an
	// error the stream names by code (Gemini: a BardErrorInfo frame,
	// param code, default 1013, a code Ferry does not know).
	ScenarioErrorInfo = "error_info"

	ScenarioCloudflare     = "cloudflare"
	ScenarioLoggedOut      = "logged_out"
	ScenarioSessionExpired = "session_expired"
	ScenarioSlowHydration  = "slow_hydration"
	ScenarioDriftedDOM     = "drifted_dom"
	// ScenarioUsageCapOnLoad is an account already at its usage cap: the
	// page shows the site's cap notice on load and every send is refused.
	ScenarioUsageCapOnLoad = "usage_cap_on_load"
	// ScenarioRenamedSend renames the send control's test id (or class),
	// keeping its aria-label and type: one renamed id must not stop a send.
	ScenarioRenamedSend = "renamed_send"
	// ScenarioLegacyStream makes the page post its answer request to the
	// site's older stream address (Kimi: kimi.gateway.chat.v1).
	ScenarioLegacyStream = "legacy_stream"
	ScenarioTallSend     = "tall_send"
	ScenarioCoveredSend  = "covered_send"
	// ScenarioNoModelPicker is an account whose page shows no model
	// choice (the site does this for some accounts): a plain ask works, a
	// chosen model cannot be picked.
	ScenarioNoModelPicker = "no_model_picker"
	// ScenarioOlderTurns serves the site's older turn markup (ChatGPT:
	// article turns with data-message-author-role and data-message-id,
	// before 2026-09-29).
	ScenarioOlderTurns = "older_turns"
	// ScenarioLocalChatURL shows a new chat at the other transient address
	// the site uses (ChatGPT: /c/local-chatgpt%3A<id> instead of
	// /c/WEB:<uuid>) until its lasting one.
	ScenarioLocalChatURL = "local_chat_url"
	// ScenarioWorkMode opens the site in its other chat kind (ChatGPT:
	// Work, its header's Chat/Work toggle on Work); ScenarioWorkStuck is
	// the same with a toggle that does not switch back to Chat.
	ScenarioWorkMode  = "work_mode"
	ScenarioWorkStuck = "work_stuck"
	// ScenarioWelcomeBack is a session that lapsed with the account still
	// known: the site asks which account to continue as (ChatGPT's
	// "Welcome back" page; param accounts, comma-separated e-mails).
	ScenarioWelcomeBack = "welcome_back"
	// ScenarioClientOutdated: the tab's first page loads (param loads,
	// default 1) hold an outdated build of the site's web client, whose
	// sends the site refuses (DeepSeek: CLIENT_VERSION_TOO_LOW).
	ScenarioClientOutdated = "client_outdated"
	// The site's model and effort picker layouts besides its newest
	// (ChatGPT: the 2026-08-31 slider), and the picker's states.
	ScenarioPickerIntelligence = "picker_intelligence"
	ScenarioPickerPower        = "picker_power"
	ScenarioTierExhausted      = "tier_exhausted"
	ScenarioNoProTier          = "no_pro_tier"
	// ScenarioRerouted answers a turn from another model than the one the
	// request asked for (ChatGPT: resolved_model_slug unlike model_slug).
	ScenarioRerouted = "rerouted"
	// ScenarioStreamHandoff: the answer stream hands the turn to the page's
	// WebSocket (ChatGPT's stream_handoff).
	ScenarioStreamHandoff = "stream_handoff"
	// The composer's tools menu and its failures (ChatGPT: "+", a pill per
	// chosen tool).
	ScenarioToolRowMissing    = "tool_row_missing"
	ScenarioToolPillMissing   = "tool_pill_missing"
	ScenarioToolPillLate      = "tool_pill_late"
	ScenarioToolPromptCleared = "tool_prompt_cleared"
	ScenarioToolsMore         = "tools_more"
	ScenarioToolNotSent       = "tool_not_sent"
	ScenarioImage             = "image"
	// ScenarioTierGated is an account whose plan lacks the site's top mode
	// (Grok: Heavy, refused with "Requires TIER_SUPERGROK_HEAVY").
	ScenarioTierGated = "tier_gated"
)

// ScenarioInfo describes a scenario for the index page and documentation.
type ScenarioInfo struct {
	Name string
	Page bool // chosen per site (admin), not per prompt
	// Sites is nil for a scenario every site implements; otherwise it
	// lists, sorted, the registered sites that name the scenario in their
	// Site.Scenarios (empty when none does).
	Sites []string
	About string
}

// Catalog lists every scenario with the sites that implement it.
var Catalog = []ScenarioInfo{
	{ScenarioNormal, false, nil, "a short Markdown answer streamed at the configured pace"},
	{ScenarioLong, false, nil, "an answer of at least 100 KB (param size, default 110KiB)"},
	{ScenarioThinking, false, []string{}, "a thinking model: ChatGPT thoughts/commentary/analysis channels and citations; THINK fragments, isThinking tokens, model-thoughts elsewhere"},
	{ScenarioInlineCode, false, nil, "no zip: the answer holds fenced code blocks"},
	{ScenarioCitedCode, false, nil, "a fenced code block between sentences with citation markers (U+E200…U+E202, on the sites whose answers carry them): what every extraction path must clean alike"},
	{ScenarioCodeZip, false, []string{}, "code mode: the python tool writes one zip to /mnt/data (param zip_size, e.g. 5MiB, up to 200MiB)"},
	{ScenarioMultiZip, false, []string{}, "code mode with several zips (param zips, default 3)"},
	{ScenarioSandboxExpired, false, []string{}, "code mode whose interpreter/download answers ace_pod_expired (404)"},
	{ScenarioEstuary403, false, []string{}, "code mode whose estuary URL always answers 403"},
	{ScenarioZipBadCRC, false, []string{}, "code mode; the zip has an entry whose data does not match its CRC"},
	{ScenarioZipTruncated, false, []string{}, "code mode; the zip is cut short (no central directory)"},
	{ScenarioZipSlip, false, []string{}, "code mode; the zip has an entry named ../../evil.sh"},
	{ScenarioZipBomb, false, []string{}, "code mode; a 64 MiB entry compressed > 100x plus two central entries overlapping it"},
	{ScenarioZipSymlink, false, []string{}, "code mode; the zip has a symlink entry pointing at /etc/passwd"},
	{ScenarioRateLimit, false, nil, "the send is refused with 429; a \"Too many requests\" dialog with \"Got it\" (ChatGPT: backdrop swallows clicks, reappears, conversation loads answer 429 for the lock, param lock)"},
	{ScenarioConversationTooLong, false, []string{}, "the stream ends with conversation_too_large; \"Start new chat\""},
	{ScenarioUsageCap, false, nil, "a usage-cap notice with a reset time (time[datetime]); param reset"},
	{ScenarioError, false, nil, "\"Something went wrong\" after a partial answer, with the site's regenerate/retry control"},
	{ScenarioStreamCut, false, nil, "the connection is reset mid-answer (no completion frames); param cut_at (fraction, default 0.5)"},
	{ScenarioAssess, false, nil, "output contracts: an assess prompt gets a DIAGNOSIS and one ruling (param ruling: pass, blocked, rejected), a plan prompt a TASK_PLAN with files and proof per step, a code prompt the sandbox zip; carries over to the conversation's later turns"},
	{ScenarioAssessNoRuling, false, nil, "as assess, but the assess answer has no ruling"},
	{ScenarioPlan, false, nil, "the same answers as assess (a TASK_PLAN to a plan prompt)"},
	{ScenarioPlanNoProof, false, nil, "as plan, but the TASK_PLAN's steps have no Proof: line"},
	{ScenarioStableI, false, nil, "the answer's first word, \"I\", stays alone for a while (param pause, default 2s), the page still generating, then the rest streams"},
	{ScenarioPauseMidAnswer, false, nil, "half the answer (param at, a fraction) streams, then nothing for a while (param pause, default 2s), the page still generating, then the rest"},
	{ScenarioToolPhase, false, nil, "a preamble (\"Let me look that up.\"), a tool phase without text (param pause, default 2s), the page still generating, then the answer"},
	{ScenarioAntiBot, false, []string{}, "the send is refused by the site's anti-bot layer (Grok: HTTP 403 {\"code\":7,\"message\":\"Request rejected by anti-bot rules.\"}, since 2026-06); the page shows an error, nothing more is sent"},
	{ScenarioErrorInfo, false, []string{}, "a partial answer, then an error the stream names by code (Gemini: [\"wrb.fr\",…,[3,null,[[\"type.googleapis.com/assistant.boq.bard.application.BardErrorInfo\",[code]]]]], param code, default 1013); the page shows its generic \"Sorry, something went wrong\" (the page's words for it are not public)"},
	{ScenarioCloudflare, true, nil, "every page is a Cloudflare \"Just a moment...\" challenge (403, cf-mitigated: challenge) until the checkbox is clicked"},
	{ScenarioLoggedOut, true, nil, "the user is logged out: login links, no account markers, /api/auth/session without user"},
	{ScenarioSessionExpired, true, []string{}, "\"Your session has expired. Please log in again\"; the access token is expired"},
	{ScenarioSlowHydration, true, nil, "the composer and send control hydrate late (param hydrate, default 3s): input before that is wiped"},
	{ScenarioDriftedDOM, true, nil, "the selectors changed (see Drift): tests user overrides"},
	{ScenarioUsageCapOnLoad, true, nil, "the account is already at its usage cap: the site's cap notice is on the page at load (a banner without a role on Claude and ChatGPT) with its reset time, and every send is refused as a cap; param reset"},
	{ScenarioRenamedSend, true, []string{}, "the send control's test id (or class) is renamed; its aria-label and type stay"},
	{ScenarioLegacyStream, true, []string{}, "the page posts its answer request to the site's older stream address (Kimi: kimi.gateway.chat.v1)"},
	{ScenarioTallSend, true, []string{}, "the page is taller than the window and the send control (marked data-sim-tall) is tall: its top shows above the fold, its centre below it (open it in a short window, 780x437 as Ferry's headless one)"},
	{ScenarioCoveredSend, true, []string{}, "a floating app banner (not an interstitial) (marked data-sim-cover) covers the send control: nothing may be clicked and the failure names the banner"},
	{ScenarioOlderTurns, true, []string{}, "the site's older turn markup (ChatGPT: article turns, data-message-author-role, data-message-id, data-message-model-slug, before 2026-09-29; Claude: action-bar-copy and action-bar-retry test ids, before 2026-08); the newest is the default"},
	{ScenarioLocalChatURL, true, []string{}, "a new chat shows the site's other transient address (ChatGPT: /c/local-chatgpt%3A<id>, not /c/WEB:<uuid>) until param durable_after (ms, default 800) after its first turn"},
	{ScenarioWorkMode, true, []string{}, "the page opens in the site's other chat kind (ChatGPT: Work, the header's button[role=radio] \"Work\" aria-checked, the composer \"Work on anything\"); only a trusted click on \"Chat\" switches back"},
	{ScenarioWorkStuck, true, []string{}, "as work_mode, but the \"Chat\" radio ignores every click"},
	{ScenarioWelcomeBack, true, []string{}, "the session lapsed: a \"Welcome back\" page lists the accounts (param accounts, comma-separated e-mails, default sim.user@example.com) beside \"Log in to another account\" and \"Sign up\"; a trusted click on one signs it in and opens the app"},
	{ScenarioClientOutdated, true, []string{}, "the first page loads (param loads, default 1) hold an outdated web client: its send lacks the current build's headers and is refused with the API's {\"code\":40005,\"msg\":\"CLIENT_VERSION_TOO_LOW\"} (DeepSeek, 2026-04 to 08), nothing answered; a page loaded later sends"},
	{ScenarioPickerIntelligence, true, []string{}, "the site's model picker of 2026-07-10 (ChatGPT: the \"Intelligence\" group of tier rows and a models submenu, trigger button.__composer-pill); the newest picker (the 0–4 slider of 2026-08-31) is the default"},
	{ScenarioPickerPower, true, []string{}, "the site's model picker of 2026-08-07 (ChatGPT: \"Power\", \"Show advanced options\", Model and Effort submenus that take trusted clicks only, an inert copy of the collapsed view)"},
	{ScenarioTierExhausted, true, []string{}, "as picker_power, with the Pro tier used up: its row is aria-disabled and hovering it shows \"Limit reached. Try again after <date>.\" (a tooltip named by its aria-describedby)"},
	{ScenarioNoProTier, true, []string{}, "a plan without the top tier (ChatGPT: the slider runs 0–3, \"N of 4\", no Pro)"},
	{ScenarioRerouted, false, []string{}, "the answer comes from another model than the request asked for (ChatGPT: resolved_model_slug gpt-5-5-thinking beside the asked model_slug): the silent downgrade"},
	{ScenarioStreamHandoff, false, []string{}, "the answer stream hands the turn off to the page's WebSocket after param at chunks of the answer (default 2): ChatGPT's stream_handoff with a subscribe_ws_topic option, then the rest as conversation-turn-stream items of that topic on the user socket (GET /backend-api/celsius/ws/user), catch-ups on subscribing; param size makes the answer that long (e.g. 100KiB), param drop drops the socket once after that many items (the page reconnects from its last offset)"},
	{ScenarioToolRowMissing, true, []string{}, "the composer's tools menu lacks the tools (ChatGPT: no \"Deep research\", \"Create image\" or \"Web search\" row, as for a plan without them)"},
	{ScenarioToolPillMissing, true, []string{}, "choosing a tool in the composer's menu closes the menu and shows no pill: the tool is not on"},
	{ScenarioToolPillLate, true, []string{}, "a chosen tool's pill shows only after param pill_ms (default 2500)"},
	{ScenarioToolPromptCleared, true, []string{}, "choosing a tool empties the composer: the prompt typed before is gone"},
	{ScenarioToolNotSent, true, []string{}, "a chosen tool's pill shows, but the send's request does not carry it (ChatGPT: no system_hints): the prompt goes out as a plain one"},
	{ScenarioImage, false, []string{}, "an image prompt: the site's image tool makes param count images (default 1) of param size (default 1024x1024), PNG bytes of simimage.PNG(the image's id) (ChatGPT: image_asset_pointer parts, files/{id}/download and the estuary, in param gen, default 300ms; Gemini: candidate [12][7][0][*][0][3][3] addresses on lh3.googleusercontent.com/gg-dl/)"},
	{ScenarioToolsMore, true, []string{}, "the tool sought is under the tools menu's \"More\" submenu (ChatGPT: \"Web search\")"},
	{ScenarioTierGated, true, []string{}, "the account's plan lacks the site's top mode (Grok: a send in Heavy is refused with HTTP 403 {\"code\":7,\"message\":\"Requires TIER_SUPERGROK_HEAVY\"}, since 2026-08)"},
	{ScenarioNoModelPicker, true, []string{}, "the page shows no model choice, as the site does for some accounts (DeepSeek: no model radios): a plain ask works, a chosen model cannot be picked"},
	{ScenarioUploadSlow, true, []string{}, "attachments: processing an uploaded file takes param processing (default 3s); send stays disabled meanwhile"},
	{ScenarioUploadLimit, true, []string{}, "attachments: the site's file size limit is param max (default 1KiB); a larger file is refused with the site's words"},
	{ScenarioUploadNoTile, true, []string{}, "attachments: the page drops an attached file silently; its tile never shows"},
	{ScenarioUploadStall, true, []string{}, "attachments: the page stops answering once a file is put in (its change or drop handler opens a modal dialog nobody dismisses)"},
	{ScenarioByContract, false, nil, "a prompt is answered by the contract its OUTPUT CONTRACT line asks for (a code prompt gets the sandbox zip), any other prompt normally; carries over to the conversation's later turns (the desktop's demo sets it for every site)"},
}

func scenarioInfo(name string) (ScenarioInfo, bool) {
	for _, c := range Catalog {
		if c.Name == name {
			return c, true
		}
	}
	return ScenarioInfo{}, false
}

// IsPage reports whether the scenario name is a page scenario.
func IsPage(name string) bool {
	info, ok := scenarioInfo(name)
	return ok && info.Page
}

// ParseScenario reads "name key=value key=value" (the body of a directive).
// It returns an error naming an unknown scenario or a malformed parameter.
func ParseScenario(spec string) (Scenario, error) {
	sc := Scenario{Name: ScenarioNormal, Params: map[string]string{}}
	for _, f := range strings.Fields(spec) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return sc, fmt.Errorf("parse scenario %q: %q is not key=value", spec, f)
		}
		if k == "scenario" {
			sc.Name = v
			continue
		}
		sc.Params[k] = v
	}
	if _, ok := scenarioInfo(sc.Name); !ok {
		return sc, fmt.Errorf("parse scenario: unknown scenario %q (known: %s)", sc.Name, strings.Join(scenarioNames(), ", "))
	}
	return sc, nil
}

func scenarioNames() []string {
	var out []string
	for _, c := range Catalog {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

var directiveRE = regexp.MustCompile(`\[\[sim:([^\]]*)\]\]`)

// Directive builds the prompt line that selects a scenario for one turn,
// e.g. Directive("code_zip", "zip_size", "5MiB") = "[[sim:scenario=code_zip zip_size=5MiB]]".
func Directive(name string, kv ...string) string {
	var b strings.Builder
	b.WriteString("[[sim:scenario=" + name)
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString(" " + kv[i] + "=" + kv[i+1])
	}
	b.WriteString("]]")
	return b.String()
}

// directiveIn returns the scenario named by the last directive in prompt.
func directiveIn(prompt string) (Scenario, bool) {
	m := directiveRE.FindAllStringSubmatch(prompt, -1)
	if len(m) == 0 {
		return Scenario{}, false
	}
	sc, err := ParseScenario(m[len(m)-1][1])
	if err != nil {
		return Scenario{}, false
	}
	return sc, true
}

// Param is the scenario's parameter k, def when it is unset or empty.
func (sc Scenario) Param(k, def string) string {
	if v, ok := sc.Params[k]; ok && v != "" {
		return v
	}
	return def
}

// Duration is parameter k as a duration ("3s"), def when it does not parse.
func (sc Scenario) Duration(k string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(sc.Param(k, "")); err == nil {
		return d
	}
	return def
}

// Int is parameter k as an integer, def when it does not parse.
func (sc Scenario) Int(k string, def int) int {
	if n, err := strconv.Atoi(sc.Param(k, "")); err == nil {
		return n
	}
	return def
}

// Float is parameter k as a number, def when it does not parse.
func (sc Scenario) Float(k string, def float64) float64 {
	if f, err := strconv.ParseFloat(sc.Param(k, ""), 64); err == nil {
		return f
	}
	return def
}

// Size is parameter k as a size (see ParseSize), def when it does not parse.
func (sc Scenario) Size(k string, def int64) int64 {
	if n, err := ParseSize(sc.Param(k, "")); err == nil {
		return n
	}
	return def
}

// ParseSize reads "5MiB", "512KiB", "2MB", "1000": binary and decimal units.
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mul    int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	mul := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mul = strings.TrimSuffix(s, u.suffix), u.mul
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("parse size %q: want a number with an optional unit such as 5MiB", s)
	}
	return int64(f * float64(mul)), nil
}

// SetScenario makes sc the scenario of site ("" = every site) for pages (page
// scenarios) or for the next turns without a directive (turn scenarios), until
// changed. Setting ScenarioNormal clears both slots.
func (s *Server) SetScenario(site string, sc Scenario) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setSticky(site, sc)
}

// setSticky stores sc in the page or turn slot of site; s.mu must be held
// (or the server not yet shared).
func (s *Server) setSticky(site string, sc Scenario) {
	if sc.Name == ScenarioNormal || sc.Name == "" {
		delete(s.sticky, site)
		delete(s.sticky, "page:"+site)
		return
	}
	if IsPage(sc.Name) {
		s.sticky["page:"+site] = sc
		return
	}
	s.sticky[site] = sc
}

// PageScenario is the page scenario of site (set for it or for every site),
// normal when none is.
func (s *Server) PageScenario(site string) Scenario {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc, ok := s.sticky["page:"+site]; ok {
		return sc
	}
	if sc, ok := s.sticky["page:"]; ok {
		return sc
	}
	return Scenario{Name: ScenarioNormal}
}

// TurnScenario picks the scenario of one prompt: its directive first, then the
// conversation's scenario, then the site's sticky scenario, then normal.
func (s *Server) TurnScenario(site, conv, prompt string) Scenario {
	if sc, ok := directiveIn(prompt); ok && !IsPage(sc.Name) {
		if conv != "" && contractScenario(sc.Name) {
			// The later steps of a contract chain carry no directive.
			s.SetConversationScenario(site, conv, sc)
		}
		return sc
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc, ok := s.sticky["conv:"+site+":"+conv]; ok && conv != "" {
		return sc
	}
	if sc, ok := s.sticky[site]; ok {
		return sc
	}
	if sc, ok := s.sticky[""]; ok {
		return sc
	}
	return Scenario{Name: ScenarioNormal}
}

// PaceFor is the streaming pace under sc: the server's, changed by the
// scenario's chunk and interval parameters.
func (s *Server) PaceFor(sc Scenario) Pace {
	s.mu.Lock()
	p := s.pace
	s.mu.Unlock()
	p.Chunk = sc.Int("chunk", p.Chunk)
	p.Interval = sc.Duration("interval", p.Interval)
	return p
}

// SetPace changes the default streaming speed.
func (s *Server) SetPace(p Pace) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Chunk > 0 {
		s.pace.Chunk = p.Chunk
	}
	if p.Interval >= 0 {
		s.pace.Interval = p.Interval
	}
}

// Lock starts the rate-limit lock of site for d.
func (s *Server) Lock(site string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.locked[site] = time.Now().Add(d)
}

// LockAtNextSend makes the next send to site start its rate-limit lock, for
// d from that send: unlike Lock, however long the caller takes to get to
// the send, that send is refused, and the lock then ends d later.
func (s *Server) LockAtNextSend(site string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lockNext[site] = d
}

// SendLockedUntil is LockedUntil for a send: a lock set to start at the
// next send (LockAtNextSend) starts now.
func (s *Server) SendLockedUntil(site string) time.Time {
	s.mu.Lock()
	if d, ok := s.lockNext[site]; ok {
		delete(s.lockNext, site)
		s.locked[site] = time.Now().Add(d)
	}
	s.mu.Unlock()
	return s.LockedUntil(site)
}

// LockedUntil returns the end of site's rate-limit lock, or zero.
func (s *Server) LockedUntil(site string) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.locked[site]; time.Now().Before(t) {
		return t
	}
	return time.Time{}
}

// SetConversationScenario makes the turn scenario sc apply to every later
// prompt of one conversation of site that carries no directive ("normal"
// clears it).
func (s *Server) SetConversationScenario(site, conv string, sc Scenario) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := "conv:" + site + ":" + conv
	if sc.Name == ScenarioNormal || sc.Name == "" {
		delete(s.sticky, key)
		return
	}
	s.sticky[key] = sc
}

// Reset clears scenarios, locks, the ledger and what the sites keep
// (conversations, files: their OnReset hooks), and restores the pace given
// to New.
func (s *Server) Reset() {
	s.mu.Lock()
	s.pace = s.initialPace
	s.sticky = map[string]Scenario{}
	s.locked = map[string]time.Time{}
	s.lockNext = map[string]time.Duration{}
	s.ledger = ledger{}
	s.resetStops()
	s.releaseHolds()
	hooks := append([]func(){}, s.resets...)
	s.mu.Unlock()
	s.script.mu.Lock()
	s.script.convs = nil
	s.script.mu.Unlock()
	for _, fn := range hooks {
		fn()
	}
}
