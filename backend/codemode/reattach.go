package codemode

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider"
)

// Reattaching a code step. A `ferry code` killed after its prompt was sent
// leaves a session that `ferry reattach` resumes without sending anything
// again; once the answer is extracted, what is left is the artifact step:
// find this turn's zips in the recorded conversation, bring home the ones
// not yet saved, verify, journal, and write the receipt. Everything that
// step needs (the output directory, the delivery, the verifier's caps) is
// recorded in the session as its "code" receipt before the prompt is sent.

// SettingsLayer is the session receipt layer in which a code step
// records its output directory, delivery and verifier caps.
const SettingsLayer = "code"

// settingsReceipt is the step's SettingsLayer receipt.
func (r *codeRun) settingsReceipt() job.Receipt {
	return job.Receipt{Layer: SettingsLayer, At: time.Now().UTC(), Data: map[string]string{
		"out":             r.out,
		"contract":        string(r.receipt.Contract),
		"multi_zip":       strconv.FormatBool(r.req.MultiZip),
		"allow_inline":    strconv.FormatBool(r.req.AllowInline),
		"max_zip_bytes":   strconv.FormatInt(r.limits.MaxZipBytes, 10),
		"max_entries":     strconv.Itoa(r.limits.MaxEntries),
		"max_total_bytes": strconv.FormatInt(r.limits.MaxTotalUncompressedBytes, 10),
		"max_ratio":       strconv.FormatFloat(r.limits.MaxRatio, 'g', -1, 64),
	}}
}

// Reattach finishes one code step on reattach: the Runner's Deliverable
// over the step's recorded settings, and the receipt once the run ends.
// The nil Reattach (not a code step) adds nothing and passes the run's
// outcome through.
type Reattach struct {
	run     *codeRun
	step    prompt.Step
	sr      StepReceipt
	reached bool
}

// NewReattach returns the reattach of code step s, or nil when s is not a
// code step (it has no SettingsLayer receipt: an ask, or a session of a
// Ferry that did not record one).
func NewReattach(repo *job.Repo, s *job.Session) *Reattach {
	var data map[string]string
	for _, x := range s.Receipts {
		if x.Layer == SettingsLayer {
			data = x.Data
		}
	}
	if data == nil || data["out"] == "" || !filepath.IsAbs(data["out"]) {
		return nil
	}
	limits := config.Defaults().Artifacts
	if n, err := strconv.ParseInt(data["max_zip_bytes"], 10, 64); err == nil && n > 0 {
		limits.MaxZipBytes = n
	}
	if n, err := strconv.Atoi(data["max_entries"]); err == nil && n > 0 {
		limits.MaxEntries = n
	}
	if n, err := strconv.ParseInt(data["max_total_bytes"], 10, 64); err == nil && n > 0 {
		limits.MaxTotalUncompressedBytes = n
	}
	if f, err := strconv.ParseFloat(data["max_ratio"], 64); err == nil && f > 0 {
		limits.MaxRatio = f
	}
	contract := prompt.Contract(s.Contract)
	if contract == "" {
		contract = prompt.ContractCode
	}
	req := Request{Options: Options{MultiZip: data["multi_zip"] == "true", AllowInline: data["allow_inline"] == "true"}}
	run := &codeRun{req: req, out: data["out"], repo: repo, limits: limits, resume: true,
		receipt: newReceipt(contract, req.MultiZip, req.AllowInline)}
	return &Reattach{run: run, step: prompt.Step{Contract: contract, Prompt: s.Prompt},
		sr: StepReceipt{Contract: contract, PromptSHA256: provider.ContentOf(s.Prompt, "").SHA256}}
}

// Options are the Runner options of the reattach (none for a nil c).
func (c *Reattach) Options() []job.RunnerOption {
	if c == nil {
		return nil
	}
	return []job.RunnerOption{job.WithDeliverable(c.deliver)}
}

// deliver is the step's Deliverable, as Run's: the contract check and,
// for a zip step, the zips of the turn brought home.
func (c *Reattach) deliver(ctx context.Context, s *job.Session, a provider.Adapter) (job.Delivery, error) {
	c.reached = true
	if c.step.Contract == prompt.ContractCode || c.step.Contract == prompt.ContractNone {
		if err := recordedTurn(s); err != nil {
			return job.Delivery{}, err
		}
	}
	res := s.Result()
	c.sr.Result = &res
	var d job.Delivery
	o, err := c.run.deliver(ctx, c.step, s, a, &c.sr, &d)
	if conv, msg := s.ConversationID, s.MessageID; conv != "" {
		// Keep what the artifact step learnt of the turn in the record.
		_, _ = c.run.repo.Update(context.WithoutCancel(ctx), s.ID, "", func(x *job.Session) error {
			if x.ConversationID == "" {
				x.ConversationID = conv
			}
			if x.MessageID == "" {
				x.MessageID = msg
			}
			return nil
		})
	}
	if err == nil {
		c.sr.Outcome = o
		d.Receipts = append(d.Receipts, job.Receipt{Layer: "contract", At: time.Now().UTC(), Data: outcomeData(c.step.Contract, o)})
	}
	return d, err
}

// Finish writes the receipt of a reattach that reached the Deliverable
// beside the outputs, records it in the session, and returns the session
// and the run's error (as Run words it). Other reattaches pass through.
func (c *Reattach) Finish(ctx context.Context, s *job.Session, f *job.Finding, runErr error) (*job.Session, *job.Finding, error) {
	if c == nil || !c.reached || s == nil {
		return s, f, runErr
	}
	c.run.receipt.Steps = []StepReceipt{c.sr}
	c.run.sessions = []*job.Session{s}
	out, err := c.run.finish(ctx, runErr)
	if last := out.Last(); last != nil {
		s = last
	}
	return s, f, err
}

// savedZips splits the zips found for the turn of s into those already
// saved and verified in the output directory (a good sidecar for the same
// conversation, message and sandbox path, the file's sha256 as recorded,
// and the file verifying again under the caps) and the rest, to fetch.
func (r *codeRun) savedZips(ctx context.Context, s *job.Session, found []artifact.Found) (have []artifact.Result, rest []artifact.Found) {
	for _, z := range found {
		if saved := r.savedZip(ctx, s, z.MessageIDs, z.Path); saved != nil {
			have = append(have, artifact.Result{Path: z.Path, Saved: saved})
			continue
		}
		rest = append(rest, z)
	}
	return have, rest
}

// savedZip is the good zip of the output directory that came from sandbox
// path (or, with "", from the inline fallback) of one of messages of the
// conversation of s, or nil.
func (r *codeRun) savedZip(ctx context.Context, s *job.Session, messages []string, sandbox string) *artifact.Saved {
	sides, err := filepath.Glob(filepath.Join(r.out, "*.zip"+artifact.SidecarSuffix))
	if err != nil {
		return nil
	}
	recorded := map[string]string{} // path -> sha256 the session recorded
	for _, x := range s.Artifacts {
		if x.Verdict == "verified" && x.Path != "" {
			recorded[x.Path] = x.SHA256
		}
	}
	for _, side := range sides {
		b, err := os.ReadFile(side)
		if err != nil {
			continue
		}
		var p artifact.Provenance
		if json.Unmarshal(b, &p) != nil || p.Quarantined || p.ConversationID != s.ConversationID ||
			p.SandboxPath != sandbox || !slices.Contains(messages, p.MessageID) || p.SHA256 == "" {
			continue
		}
		zip := strings.TrimSuffix(side, artifact.SidecarSuffix)
		if want, ok := recorded[zip]; ok && want != p.SHA256 {
			continue
		}
		if v := r.verifySaved(ctx, zip, p.SHA256); v != nil {
			return &artifact.Saved{Path: zip, SidecarPath: side, Verdict: v}
		}
	}
	return nil
}

// verifySaved verifies the zip at path again under the run's caps and
// returns its verdict when it is good and its sha256 is sum, else nil.
func (r *codeRun) verifySaved(ctx context.Context, path, sum string) *artifact.Verdict {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	size := st.Size()
	v, err := artifact.Verify(ctx, f, size, VerifyLimits(r.limits)...)
	if err != nil || v == nil || v.SHA256 != sum {
		return nil
	}
	if _, blocked := v.Blocking(); blocked {
		return nil
	}
	return v
}

// recordedTurn completes s for the artifact step of a reattach whose answer
// was collected from the page alone (the stream of the send was in the
// killed process): the conversation id from the recorded conversation URL,
// and the answer's message id from the conversation, as the last message
// of the turn whose user message holds the run's prompt. Errors:
// ArtifactNotFound when the conversation is unknown or does not hold the
// prompt (nothing from another turn is taken for this run's).
func recordedTurn(s *job.Session) error {
	if s.ConversationID == "" {
		if _, id, ok := strings.Cut(s.ConversationURL, "/c/"); ok {
			s.ConversationID = strings.TrimRight(strings.SplitN(id, "?", 2)[0], "/")
		}
	}
	if s.ConversationID == "" {
		return errs.New(errs.ArtifactNotFound, "session %s recorded no conversation, so no zip can be minted", s.ID).
			WithHint("fetch the zips with `ferry retrieve --conv ID` once you know the conversation")
	}
	return nil
}

// promptAnswer is the id of the last message of the turn whose user message
// holds prompt (compared with whitespace collapsed) on branch, or "".
func promptAnswer(branch []provider.BranchMessage, prompt string) string {
	want := strings.Join(strings.Fields(prompt), " ")
	for i := len(branch) - 1; i >= 0; i-- {
		m := branch[i]
		if m.Role != "user" {
			continue
		}
		if !strings.Contains(strings.Join(strings.Fields(m.Text), " "), want) {
			continue
		}
		answer := ""
		for _, x := range branch[i+1:] {
			if x.Role == "user" {
				break
			}
			answer = x.ID
		}
		return answer
	}
	return ""
}
