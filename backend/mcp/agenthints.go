package mcp

import (
	"github.com/ferrydesk/ferry/backend/errs"
)

// The catalog's hints are written for the user at a terminal: they name
// flags and commands (`ferry approvals list`, --session) that an agent over
// MCP cannot run, and many of them are the owner's. An agent can call
// Ferry's tools, change its arguments, wait, or ask the user to act in
// Ferry or in the browser; an envelope it gets says what to do in those
// words.

// agentHints are the agent's "what to do" for each code of the catalog
// (a test holds that none is missing and none names a flag or a command).
var agentHints = map[errs.Code]string{
	errs.Internal:              "this is a bug in Ferry: tell the user the message, so that they can report it from Ferry",
	errs.Cancelled:             "the job was cancelled: call ask or code again if it is still wanted",
	errs.Timeout:               "the site may still finish: call the job tool with the job_id to read it, or the session tool for the run",
	errs.BadInput:              "fix the argument the message names and call the tool again",
	errs.UnknownCommand:        "this Ferry does not know the request: ask the user to update Ferry",
	errs.ConfigInvalid:         "Ferry's settings file is invalid: ask the user to fix it in Ferry's Settings",
	errs.UnknownSite:           "pass the id of a site the sites tool lists",
	errs.TemplateNotFound:      "use the name of a template the templates tool lists",
	errs.TemplateInvalid:       "the template is broken: ask the user to fix it in Ferry, or send the prompt without it",
	errs.PromptTooLarge:        "shorten the prompt, or put the material in a file and pass it in files",
	errs.AuthorizationRequired: "this needs the user's own confirmation: ask the user to run it in Ferry",
	errs.SiteIncomplete:        "the site's definition in Ferry is incomplete: ask the user to complete it in Settings → Sites, or use another site from the sites tool",
	errs.StoreBusy:             "another Ferry process holds Ferry's data: ask the user to close it or to start the Ferry app, then call the tool again",
	errs.StoreCorrupt:          "Ferry's data is damaged: ask the user to check it in Ferry (Settings → System) and restore a backup",
	errs.StoreSchemaNewer:      "Ferry's data was written by a newer Ferry: ask the user to update Ferry",
	errs.StoreIO:               "Ferry could not read or write its data: ask the user to check free disk space, then call the tool again",
	errs.DataDirUnwritable:     "Ferry cannot write its data directory: ask the user to fix its permissions or choose another in Ferry's Settings",
	errs.DiskFull:              "the disk that holds the directory named in the message is full: ask the user to free space, then call the tool again",
	errs.BrowserNotFound:       "Ferry found no browser: ask the user to install Chromium or choose the browser in Ferry's Settings",
	errs.BrowserLaunchFailed:   "Ferry could not start the browser: ask the user to close other browsers that use Ferry's profile, then call the tool again",
	errs.BrowserDisconnected:   "the browser went away: ask the user to start it again in Ferry; a job that was answering can be read with the job tool once it is back, and its run with the session tool",
	errs.LoginRequired:         "nothing was sent: ask the user to log in to the site in the browser Ferry uses, then call the tool again",
	errs.CloudflareChallenge:   "nothing was sent: ask the user to solve the site's check in the browser Ferry uses, then call the tool again",
	errs.RateLimited:           "the site limits requests: wait until the time in the evidence, or use another site from the sites tool",
	errs.UsageCap:              "the account's plan limit is reached: wait for the reset, or pass another model or site",
	errs.AccountBlocked:        "the site flagged the user's account: tell the user; only they can resolve it on the site",
	errs.ConsentRequired:       "nothing was sent: ask the user to answer the site's consent page in the browser Ferry uses, then call the tool again",
	errs.CapabilityMissing:     "use a site or model that has the feature: the sites tool says which sites make code zips",
	errs.ModelUnavailable:      "pass another model, or leave model out for the site's default",
	errs.ToolUnavailable:       "the site would not switch the tool on, so nothing was sent: call the tool again without it, or tell the user what the error says the page showed",
	errs.PolicyDenied:          "this agent may not do that: ask the user to allow it for this agent in Ferry",
	errs.ApprovalRejected:      "the user rejected the job in Ferry: ask the user before sending it, or send a different request",
	errs.ComposerNotFound:      "the site's page was not ready or has changed; nothing was sent: call the tool again, and tell the user if it keeps failing",
	errs.ComposerMismatch:      "the composer did not hold the prompt, so nothing was sent: call the tool again",
	errs.SendUnconfirmed:       "the prompt may or may not have been sent: read the run with the session tool and ask the user to check the tab before sending it again",
	errs.NoDisplay:             "Ferry cannot show its browser here: ask the user to run Ferry in a desktop session",
	errs.EnvironmentNotReady:   "Ferry's set-up is incomplete: ask the user to apply the fixes Ferry's Settings → System lists",
	errs.HotkeyTaken:           "another program holds the quick-prompt hotkey: nothing for an agent to do",
	errs.TargetNotFound:        "the tab is gone: call ask again with new_chat, or with session to continue that run's conversation in a new tab",
	errs.TargetCrashed:         "the tab crashed: ask the user to reload it, then read the job with the job tool",
	errs.NavigatedAway:         "the tab left the site while Ferry worked on it: call the tool again",
	errs.SessionNotFound:       "check the id: the sessions tool lists the runs this agent may read",
	errs.SessionStale:          "the conversation's tab is gone or shows another page: call ask with session again, which reopens it, or start a new chat",
	errs.SessionAmbiguous:      "several runs match: pass the full id the sessions tool lists",
	errs.TabAmbiguous:          "several tabs of the site are open: call ask with new_chat, or ask the user to close the tabs they do not need",
	errs.TabBusy:               "the tab is still answering an earlier prompt: wait for that job with the job tool, or call ask with new_chat",
	errs.NavigationAborted:     "the page navigated while Ferry worked on it: call the tool again",
	errs.DeliverableMissing:    "the answer lacks what was asked for: read it with the session tool, then ask again or rephrase",
	errs.AnswerEmpty:           "the site finished without an answer: call the tool again",
	errs.ContractViolation:     "the answer does not follow the output contract (see the evidence): ask again, stating the contract more plainly",
	errs.ConversationTooLong:   "the conversation is too long for the site: call ask with new_chat and the context it needs",
	errs.GenerationError:       "the site reported an error for this turn: call the tool again later",
	errs.ModelMismatch:         "another model answered than the one asked for (see the evidence): pass another model, or leave model out",
	errs.ArtifactNotFound:      "the answer names no sandbox file: call code again, asking for the zip",
	errs.ArtifactExpired:       "the sandbox expired: call code again to rebuild the zip",
	errs.ArtifactMintFailed:    "Ferry could not get the zip's download: ask the user to check the ChatGPT login in the browser, then call retrieve with the conversation",
	errs.ArtifactFetchFailed:   "the download failed: call retrieve with the conversation; it still holds the file",
	errs.ArtifactCorrupt:       "the zip is damaged and was not saved as good: call retrieve with the conversation, or code again",
	errs.ArtifactUnsafe:        "the zip breaks a safety rule (see the evidence) and was quarantined: do not extract it; ask for it again",
	errs.ArtifactTooLarge:      "the zip is larger than the user allows: ask the user whether to raise the limit in Ferry's Settings",
	errs.ArtifactForbidden:     "the site refused the download: ask the user to check the login and any check in the browser, then call retrieve",
	errs.ArtifactSaveFailed:    "Ferry could not save the zip: ask the user to check free disk space, then call retrieve with the conversation",
	errs.CodeArtifactMissing:   "the answer came without a sandbox zip: call code again, or with allow_inline to save the answer's code blocks as a zip",
	errs.ResearchNotStarted:    "the site did not do the deep research: its plain answer is in the run; call the tool again with tool deep-research and confirmPlan true, or tell the user to start the plan in the ChatGPT tab",
	errs.ImageRefused:          "the site would not make the image: tell the user its words (in the evidence) and call the tool again only with a changed prompt",
	errs.HubUnauthorized:       "the user revoked this agent in Ferry: nothing is sent for it until the user allows it again",
	errs.HubForbidden:          "this agent may not do that: ask the user to allow it for this agent in Ferry",
	errs.HubRateLimited:        "too many calls: wait for the time in the evidence, then call again",
	errs.HubNotRunning:         "the Ferry app or service this server works through stopped: ask the user to start Ferry, then call the tool again",
	errs.HubQueueFull:          "Ferry is unreachable and many messages wait: call the tool again later",
	errs.HubNotFound:           "check the id: ask and code return job ids, the sessions tool lists this agent's runs; another agent's jobs and runs are not visible",
	errs.VersionMismatch:       "two Ferry versions are running: ask the user to restart Ferry",
	errs.AttachmentRejected:    "nothing was sent: the site refused the file named; pass fewer or smaller files, or another type",
	errs.AttachmentUnconfirmed: "nothing was sent: the file named never showed in the composer as ready; call the tool again",
	errs.PairingCodeInvalid:    "the pairing code is wrong or used up: ask the user for a new one",
}

// forAgent is env as an agent reads it: its hint in the agent's words when
// the hint is the catalog's (written for the user at a terminal) or names
// a flag or a command; a hint written for the case that names neither is
// kept. env itself is left as it is (it may be a stored run's); nil stays
// nil.
func forAgent(env *errs.Envelope) *errs.Envelope {
	if env == nil {
		return nil
	}
	spec, _ := errs.Lookup(env.Code)
	if env.RetryHint != "" && env.RetryHint != spec.Hint && !errs.NamesCLI(env.RetryHint) {
		return env
	}
	h, ok := agentHints[env.Code]
	if !ok {
		h = "tell the user the message; they can act on it in Ferry"
	}
	out := *env
	out.RetryHint = h
	return &out
}
