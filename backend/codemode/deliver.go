package codemode

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/version"
)

// deliver is the Runner's Deliverable of one step: the compliance of the
// answer, the zips of this turn brought home (or the inline fallback), and
// the contract check. It fills sr (the receipt's step) and d (the session's
// artifacts).
func (r *codeRun) deliver(ctx context.Context, step prompt.Step, s *job.Session, a provider.Adapter, sr *StepReceipt, d *job.Delivery) (*prompt.Outcome, error) {
	if s.ConversationID != "" {
		r.receipt.ConversationID = s.ConversationID
		if src, ok := a.(provider.ArtifactSource); ok {
			r.receipt.ConversationURL = src.ConversationAddress(s.ConversationID)
		}
	}
	ans := prompt.Answer{Text: s.Answer}
	if zipStep(step.Contract) {
		src, ok := a.(provider.ArtifactSource)
		if !ok {
			return nil, errs.New(errs.CapabilityMissing, "the run's tab is driven by %T, which has no sandbox", a)
		}
		expected := ""
		if !r.req.MultiZip {
			expected = artifact.SandboxDir + prompt.DefaultZipName
		}
		sr.Compliance = prompt.Compliance(s.Answer, r.req.MultiZip, expected)
		zips, err := r.bringHome(ctx, src, s, d)
		if err != nil {
			return nil, err
		}
		ans.Zips = zips
	}
	o, err := prompt.Check(step.Contract, ans.Text, ans.Zips)
	if err != nil && zipStep(step.Contract) && errs.Has(err, errs.DeliverableMissing) && !r.req.AllowInline && len(r.receipt.Zips) == 0 {
		// The catalog's hint names --allow-inline.
		err = errs.Wrap(err, errs.CodeArtifactMissing, "no sandbox zip came back: %s", errs.From(err).Message)
	}
	return o, err
}

// bringHome finds the zips of the answer's turn and retrieves each, or
// falls back to the inline code blocks; every zip becomes a receipt line
// and a session artifact.
func (r *codeRun) bringHome(ctx context.Context, src provider.ArtifactSource, s *job.Session, d *job.Delivery) ([]prompt.Zip, error) {
	if s.ConversationID == "" {
		return nil, errs.New(errs.ArtifactNotFound, "the answer came without a conversation id, so no zip can be minted")
	}
	r.src = src
	scan, err := src.SandboxFiles(ctx, s.ConversationID)
	if err != nil {
		return nil, err
	}
	if r.resume && s.MessageID == "" {
		// A reattach that collected the answer from the page: find its
		// turn by the prompt, never take another turn's zips.
		if s.MessageID = promptAnswer(scan.Branch, s.Prompt); s.MessageID == "" {
			return nil, errs.New(errs.ArtifactNotFound, "conversation %s does not hold the run's prompt", s.ConversationID).
				WithEvidence("conversation", s.ConversationID)
		}
	}
	found := turnZips(scan, s.MessageID)
	if len(found) == 0 {
		return r.inline(ctx, s, d)
	}
	prov := artifact.Provenance{Site: SiteID, Session: s.ID}
	var results []artifact.Result
	if r.resume {
		// A reattach: what this turn already saved and verified stays (or
		// is adopted when only its sidecar is missing), and only the rest is
		// fetched.
		_, _ = artifact.SweepDeadTemps(r.out)
		results, found = r.savedZips(ctx, s, found)
		var adopted []artifact.Result
		adopted, found = r.adoptZips(ctx, s, found, d)
		results = append(results, adopted...)
	}
	if len(found) > 0 {
		opts := append(RetrieveOptions(r.limits), artifact.WithSave(artifact.WithBeforeLink(r.journalZip(ctx, s.ID))))
		more, ferr := artifact.RetrieveAll(ctx, src, s.ConversationID, found, r.out, prov, opts...)
		if ferr != nil && (len(results) == 0 || ctx.Err() != nil) {
			// Nothing was already home (or the run was stopped).
			err = ferr
		}
		results = append(results, more...)
	}
	var zips []prompt.Zip
	for _, x := range results {
		zr := ZipReceiptOf(x)
		if zr.Verified {
			zips = append(zips, prompt.Zip{Path: x.Path, Verified: true, Files: zr.Files})
		}
		r.receipt.Zips = append(r.receipt.Zips, zr)
		d.Artifacts = append(d.Artifacts, artifactOf(zr))
	}
	d.Receipts = append(d.Receipts, r.downloadReceipt())
	if err != nil {
		return zips, err
	}
	if failed := artifact.Failed(results); failed != "" {
		w := "not saved as good: " + failed
		r.receipt.Warnings = append(r.receipt.Warnings, w)
		d.Warnings = append(d.Warnings, w)
	}
	return zips, nil
}

// inline is the AllowInline fallback for an answer without a zip: its
// named code blocks become a zip that goes through the same verifier and
// atomic save as a sandbox zip.
func (r *codeRun) inline(ctx context.Context, s *job.Session, d *job.Delivery) ([]prompt.Zip, error) {
	if !r.req.AllowInline {
		// The contract check reports the missing deliverable (as
		// code_artifact_missing); an answer with a diff still meets the
		// code contract.
		return nil, nil
	}
	if r.resume {
		if saved := r.savedZip(ctx, s, []string{s.MessageID}, ""); saved != nil {
			// A reattach: the inline zip was saved before the interruption.
			zr := ZipReceiptOf(artifact.Result{Saved: saved})
			zr.Inline = true
			r.receipt.Zips = append(r.receipt.Zips, zr)
			d.Artifacts = append(d.Artifacts, artifactOf(zr))
			d.Receipts = append(d.Receipts, r.downloadReceipt())
			return []prompt.Zip{{Path: saved.Path, Verified: true, Files: zr.Files}}, nil
		}
	}
	files, err := artifact.InlineFiles(s.Answer)
	if err != nil && errs.Has(err, errs.ArtifactNotFound) && len(s.CodeBlocks) > 0 {
		files, err = &artifact.InlineResult{Files: unnamedBlocks(s.CodeBlocks)}, nil
	}
	if err != nil {
		return nil, errs.From(err).WithHint("the answer has no zip and no code block; ask again for the zip")
	}
	var buf bytes.Buffer
	if err := artifact.WriteInlineZip(&buf, files.Files); err != nil {
		return nil, err
	}
	name := "inline-" + shortID(s.ConversationID) + ".zip"
	prov := artifact.Provenance{Site: SiteID, Session: s.ID, ConversationID: s.ConversationID, MessageID: s.MessageID,
		ConversationURL: r.receipt.ConversationURL}
	saved, err := artifact.Save(ctx, r.out, name, &buf, prov, artifact.WithFerryVersion(version.Version), artifact.WithVerify(VerifyLimits(r.limits)...))
	zr := ZipReceipt{Inline: true}
	if saved != nil {
		zr.SavedPath, zr.Sidecar, zr.Quarantined = saved.Path, saved.SidecarPath, saved.Quarantined
		if v := saved.Verdict; v != nil {
			zr.SHA256, zr.Size, zr.Files = v.SHA256, v.Size, v.Files
		}
	}
	if err != nil {
		zr.Error = errs.From(err)
	} else {
		zr.Verified = true
	}
	r.receipt.Zips = append(r.receipt.Zips, zr)
	d.Artifacts = append(d.Artifacts, artifactOf(zr))
	d.Receipts = append(d.Receipts, r.downloadReceipt())
	if err != nil {
		return nil, err
	}
	w := fmt.Sprintf("no sandbox zip: saved %d named code blocks as %s (--allow-inline)", len(files.Files), filepath.Base(saved.Path))
	r.receipt.Warnings = append(r.receipt.Warnings, w)
	d.Warnings = append(d.Warnings, w)
	return []prompt.Zip{{Path: saved.Path, Verified: true, Files: zr.Files}}, nil
}

// downloadReceipt is the session's download layer as it stands.
func (r *codeRun) downloadReceipt() job.Receipt {
	good := 0
	for _, z := range r.receipt.Zips {
		if z.Verified {
			good++
		}
	}
	return job.Receipt{Layer: "download", At: time.Now().UTC(), Data: map[string]string{
		"zips": strconv.Itoa(len(r.receipt.Zips)), "verified": strconv.Itoa(good), "out": r.out}}
}

// artifactOf is a zip's receipt line as a session artifact.
func artifactOf(z ZipReceipt) job.Artifact {
	a := job.Artifact{Name: filepath.Base(z.SavedPath), Path: z.SavedPath, SHA256: z.SHA256, Bytes: z.Size, Verdict: "verified"}
	if a.Name == "." || z.SavedPath == "" {
		a.Name = filepath.Base(z.SandboxPath)
	}
	switch {
	case z.Verified:
	case z.Quarantined:
		a.Verdict = "quarantined"
	default:
		a.Verdict = "rejected"
	}
	if z.Error != nil {
		a.Reason = string(z.Error.Code) + ": " + z.Error.Message
	}
	return a
}

// outcomeData is a contract outcome as receipt data.
func outcomeData(c prompt.Contract, o *prompt.Outcome) map[string]string {
	d := map[string]string{"contract": string(c)}
	if o == nil {
		return d
	}
	if o.Ruling != "" {
		d["ruling"] = o.Ruling
	}
	if o.PlanSteps > 0 {
		d["plan_steps"] = strconv.Itoa(o.PlanSteps)
	}
	if o.Diff {
		d["diff"] = "true"
	}
	if len(o.Zips) > 0 {
		d["zips"] = strings.Join(o.Zips, " ")
	}
	return d
}

// lastStepWantsZip reports whether the last step of rc asked for a sandbox
// zip (the code or none contract).
func lastStepWantsZip(rc *Receipt) bool {
	if len(rc.Steps) == 0 {
		return false
	}
	return zipStep(rc.Steps[len(rc.Steps)-1].Contract)
}

// unnamedBlocks names an answer's code blocks block-01.<ext>, … when none
// of them carries a file name, so that AllowInline still keeps the code.
func unnamedBlocks(blocks []provider.CodeBlock) []artifact.InlineFile {
	out := make([]artifact.InlineFile, 0, len(blocks))
	for i, b := range blocks {
		out = append(out, artifact.InlineFile{Path: fmt.Sprintf("block-%02d.%s", i+1, langExt(b.Language)), Lang: b.Language, Content: b.Code})
	}
	return out
}

// langExt is the file extension for a fence's language tag.
func langExt(lang string) string {
	l := strings.ToLower(strings.TrimSpace(lang))
	switch l {
	case "python", "py":
		return "py"
	case "bash", "sh", "shell", "zsh", "console":
		return "sh"
	case "javascript", "js", "node":
		return "js"
	case "typescript", "ts":
		return "ts"
	case "golang", "go":
		return "go"
	case "yaml", "yml":
		return "yaml"
	case "markdown", "md":
		return "md"
	case "rust", "rs":
		return "rs"
	}
	if l != "" && len(l) <= 8 && strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789") == "" {
		return l
	}
	return "txt"
}

// turnZips returns the zips of the scan that messages after the
// last user message before answerID hold, with only those message ids: a
// tab that continues an older conversation must not bring its old zips
// home as this run's.
func turnZips(scan *provider.SandboxScan, answerID string) []artifact.Found {
	branch := scan.Branch
	end := len(branch)
	for i, m := range branch {
		if m.ID == answerID {
			end = i + 1
		}
	}
	start := 0
	for i := end - 1; i >= 0; i-- {
		if branch[i].Role == "user" {
			start = i + 1
			break
		}
	}
	turn := map[string]bool{}
	for _, m := range branch[start:end] {
		turn[m.ID] = true
	}
	var out []artifact.Found
	for _, f := range scan.Zips {
		var ids []string
		for _, id := range f.MessageIDs {
			if turn[id] {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			f.MessageIDs = ids
			out = append(out, f)
		}
	}
	return out
}

// shortID is the first 12 characters of a conversation id, for file names.
func shortID(id string) string {
	if id == "" {
		return "noconv"
	}
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
