package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/version"
)

// RetrieveReceiptKind names the format of the receipt `ferry retrieve`
// writes.
const RetrieveReceiptKind = "ferry.retrieve.receipt/v1"

func init() {
	register(&command{
		name:  "retrieve",
		args:  "--conv ID [--out DIR] [--tab TARGETID]",
		short: "bring the verified zips of an existing ChatGPT conversation home, sending nothing",
		long: `Reads the ChatGPT conversation ID (the <id> of https://chatgpt.com/c/<id>) in the
browser, finds every /mnt/data/*.zip on its current branch, and brings each home
the way ferry code does: the download URL is minted with the session's bearer
token and fetched inside the page, so the cookies never leave the browser; each
zip is verified and saved atomically into --out (default: the settings'
artifacts.outputDir, else the data directory's artifacts/) with its
<name>.zip.provenance.json sidecar. Unsafe zips go to --out/quarantine/, damaged
ones are deleted. Nothing is typed or sent.

The tab: --tab TARGETID uses exactly that tab (it must be on ChatGPT); otherwise
a tab showing the conversation, else any open ChatGPT tab, else a new background
tab on the conversation (closed again afterwards).

A receipt (<time>-<conversation>-retrieve.receipt.json in --out) lists every
zip's outcome; with --json it is also printed. Exit codes: 0 at least one zip
was saved and verified (the others are named in a warning); 2 bad input; 3 the
browser or the login is missing; 4 the tab is gone; 7 no zip, an expired
sandbox, a refused download, a damaged or unsafe zip.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("conv", "", "the ChatGPT conversation id (from https://chatgpt.com/c/<id>)")
			fs.String("tab", "", "CDP TargetID of a ChatGPT tab to fetch through (exactly that tab)")
			fs.String("out", "", "directory for the zips, sidecars and receipt (default: settings' artifacts.outputDir, else <data dir>/artifacts)")
			registerBrowserFlags(fs, browserLaunch)
			fs.Duration("timeout", 10*time.Minute, "give up after this long")
		},
		run: runRetrieve,
	})
}

// RetrieveReceipt is the record `ferry retrieve` writes beside its outputs.
// Like the code receipt it holds ids, hashes and local paths, never a token,
// a cookie or a signed download URL.
type RetrieveReceipt struct {
	Kind            string              `json:"kind"`
	OK              bool                `json:"ok"`
	Site            string              `json:"site"`
	ConversationID  string              `json:"conversationId"`
	ConversationURL string              `json:"conversationUrl"`
	TabID           string              `json:"tabId,omitempty"`
	TabWasCreated   bool                `json:"tabWasCreated"`
	Zips            []ZipReceipt        `json:"zips"`
	Rejected        []artifact.Rejected `json:"rejected,omitempty"` // path-like strings the scan refused
	Warnings        []string            `json:"warnings,omitempty"`
	Error           *errs.Envelope      `json:"error,omitempty"`
	Path            string              `json:"receipt,omitempty"`
	StartedAt       time.Time           `json:"startedAt"`
	FinishedAt      time.Time           `json:"finishedAt"`
	FerryVersion    string              `json:"ferryVersion"`
}

// checkConvID refuses a --conv that is not a ChatGPT conversation id.
func checkConvID(id string) error { return core.CheckConvID(id) }

// outputDir is --out, else the settings' artifacts.outputDir, else the data
// directory's artifacts/, absolute and created.
func outputDir(inv *invocation, paths config.Paths, s config.Settings) (string, error) {
	out := inv.flag("out").(string)
	if out == "" {
		out = s.Artifacts.OutputDir
	}
	if out == "" {
		out = paths.ArtifactsDir()
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", errs.Wrap(err, errs.BadInput, "resolve --out: %v", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", errs.Wrap(err, errs.BadInput, "create the output directory %s: %v", abs, err).WithHint("pass --out with a writable directory")
	}
	return abs, nil
}

// retrieveOptions are the download and verifier limits of the settings.
func retrieveOptions(a config.ArtifactSettings) []artifact.RetrieveOption {
	return core.RetrieveOptions(a)
}

func runRetrieve(ctx context.Context, inv *invocation) error {
	if len(inv.args) > 0 {
		return errs.New(errs.BadInput, "ferry retrieve takes no arguments, got %q", strings.Join(inv.args, " ")).
			WithHint("e.g. `ferry retrieve --conv 67f0c1d2-… --out ./zips`")
	}
	conv, tabID := inv.flag("conv").(string), inv.flag("tab").(string)
	if conv == "" {
		return errs.New(errs.BadInput, "ferry retrieve needs --conv ID").
			WithHint("pass the <id> of the conversation's address https://chatgpt.com/c/<id>")
	}
	if err := checkConvID(conv); err != nil {
		return err
	}
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	settings, err := config.Load(paths.SettingsFile())
	if err != nil {
		return err
	}
	reg, err := core.SiteRegistry(settings)
	if err != nil {
		return err
	}
	if _, err := browserSpecOf(inv, paths, browserLaunch); err != nil {
		return err
	}
	out, err := outputDir(inv, paths, settings)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	rc := &RetrieveReceipt{Kind: RetrieveReceiptKind, Site: chatgpt.ID, ConversationID: conv,
		ConversationURL: artifact.Origin + "/c/" + conv, Zips: []ZipReceipt{}, StartedAt: time.Now().UTC(), FerryVersion: version.Version}
	runErr := retrieveInto(ctx, inv, paths, reg, settings, conv, tabID, out, rc)
	if runErr != nil && ctx.Err() != nil && errs.CodeOf(runErr) != errs.Timeout {
		runErr = errs.Wrap(runErr, errs.Timeout, "the zips were not retrieved within --timeout %s", timeout)
	}
	return finishRetrieve(inv, out, rc, runErr)
}

// retrieveInto does the browser part of `ferry retrieve`, filling rc.
func retrieveInto(ctx context.Context, inv *invocation, paths config.Paths, reg *site.Registry, settings config.Settings, conv, tabID, out string, rc *RetrieveReceipt) error {
	b, err := openBrowser(ctx, inv, paths)
	if err != nil {
		return err
	}
	defer func() {
		c, stop := context.WithTimeout(context.Background(), 15*time.Second)
		defer stop()
		_ = b.Close(c)
	}()
	page, s, created, err := conversationTab(ctx, b, reg, conv, tabID, true)
	if err != nil {
		return err
	}
	rc.TabID, rc.TabWasCreated = page.ID(), created
	defer func() {
		c, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		if created {
			_ = page.Close(c) // only a fetch context: the user did not ask for it
			return
		}
		_ = page.Detach(c)
	}()
	a, err := chatgptAdapter(page, s, reg)
	if err != nil {
		return err
	}
	c, err := a.Conversation(ctx, conv)
	if err != nil {
		return err
	}
	scan, err := artifact.ScanConversation(c)
	if err != nil {
		return err
	}
	rc.Rejected = scan.Rejected
	results, err := artifact.RetrieveAll(ctx, a.Fetcher(), conv, scan.Zips, out,
		artifact.Provenance{Site: chatgpt.ID}, retrieveOptions(settings.Artifacts)...)
	for _, x := range results {
		rc.Zips = append(rc.Zips, zipReceiptOf(x))
	}
	if err != nil {
		return err
	}
	if failed := artifact.Failed(results); failed != "" {
		rc.Warnings = append(rc.Warnings, "not saved as good: "+failed)
	}
	return nil
}

// zipReceiptOf is the receipt line of one retrieved zip.
func zipReceiptOf(x artifact.Result) ZipReceipt { return core.ZipReceiptOf(x) }

// chatgptAdapter is the ChatGPT adapter of page (see core.ChatGPTAdapter).
func chatgptAdapter(page *browser.Page, s site.Site, reg *site.Registry) (*chatgpt.Adapter, error) {
	return core.ChatGPTAdapter(page, s, reg)
}

// conversationTab finds the ChatGPT tab for conversation conv (see
// core.ConversationTab).
func conversationTab(ctx context.Context, b *browser.Browser, reg *site.Registry, conv, tabID string, anyTab bool) (*browser.Page, site.Site, bool, error) {
	return core.ConversationTab(ctx, b, reg, conv, tabID, anyTab)
}

// finishRetrieve completes the receipt, writes it into out, prints it and
// returns runErr (already printed with --json).
func finishRetrieve(inv *invocation, out string, rc *RetrieveReceipt, runErr error) error {
	rc.FinishedAt = time.Now().UTC()
	if runErr != nil {
		rc.Error = errs.From(runErr)
	}
	rc.OK = runErr == nil
	path := filepath.Join(out, rc.StartedAt.Format("20060102T150405Z")+"-"+shortID(rc.ConversationID)+"-retrieve"+ReceiptSuffix)
	rc.Path = path
	if warning, err := writeReceipt(path, rc, runErr); err != nil {
		return err
	} else if warning != "" {
		rc.Warnings = append(rc.Warnings, warning)
		rc.Path = ""
	}
	if inv.json {
		if err := inv.printJSON(rc); err != nil {
			return err
		}
		if runErr != nil {
			return errReported{runErr}
		}
		return nil
	}
	printZips(inv, rc.Zips, rc.Warnings, rc.Path)
	return runErr
}

// printZips writes the outcome of each zip in words: saved paths on stdout,
// the rest on stderr.
func printZips(inv *invocation, zips []ZipReceipt, warnings []string, receipt string) {
	for _, z := range zips {
		switch {
		case z.Verified:
			fmt.Fprintf(inv.stdout, "%s\n", z.SavedPath)
			fmt.Fprintf(inv.stderr, "saved %s: %d files, %d bytes, sha256 %s\n", filepath.Base(z.SavedPath), z.Files, z.Size, z.SHA256)
		case z.Quarantined:
			fmt.Fprintf(inv.stderr, "quarantined %s as %s (%s)\n", z.SandboxPath, z.SavedPath, z.Error.Code)
		case z.Error != nil:
			fmt.Fprintf(inv.stderr, "not saved %s (%s)\n", z.SandboxPath, z.Error.Code)
		}
	}
	for _, w := range warnings {
		fmt.Fprintf(inv.stderr, "warning: %s\n", w)
	}
	if receipt != "" {
		fmt.Fprintf(inv.stderr, "receipt %s\n", receipt)
	}
}
