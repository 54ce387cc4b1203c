package cli

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

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
			registerBrowserFlags(fs, browserflag.Launch)
			fs.Duration("timeout", 10*time.Minute, "give up after this long")
		},
		run: runRetrieve,
	})
}

// RetrieveReceipt is the record `ferry retrieve` writes beside its outputs.
// Like the code receipt it holds ids, hashes and local paths, never a token,
// a cookie or a signed download URL.
type RetrieveReceipt = service.RetrieveReceipt

func runRetrieve(ctx context.Context, inv *invocation) error {
	req, err := retrieveRequestOf(inv)
	if err != nil {
		return err
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	rc, runErr := svc.Retrieve(ctx, cliCaller, req)
	if rc == nil {
		return runErr
	}
	return printRetrieve(inv, rc, runErr)
}

// retrieveRequestOf reads and checks the flags of `ferry retrieve` into
// its request (nothing is opened): --out made absolute, as an owner runs
// elsewhere; no browser flag leaves the browser to the Service (an
// owner's own, else Ferry's, launched). Errors: BadInput for arguments,
// no --conv, a timeout that is not positive, browser flags that
// contradict each other.
func retrieveRequestOf(inv *invocation) (service.RetrieveRequest, error) {
	var none service.RetrieveRequest
	if len(inv.args) > 0 {
		return none, errs.New(errs.BadInput, "ferry retrieve takes no arguments, got %q", strings.Join(inv.args, " ")).
			WithHint("e.g. `ferry retrieve --conv 67f0c1d2-… --out ./zips`")
	}
	conv, timeout := inv.flag("conv").(string), inv.flag("timeout").(time.Duration)
	if conv == "" {
		return none, errs.New(errs.BadInput, "ferry retrieve needs --conv ID").
			WithHint("pass the <id> of the conversation's address https://chatgpt.com/c/<id>")
	}
	if timeout <= 0 {
		return none, errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	out := inv.flag("out").(string)
	if out != "" {
		var err error
		if out, err = filepath.Abs(out); err != nil {
			return none, errs.Wrap(err, errs.BadInput, "resolve --out: %v", err)
		}
	}
	b, err := browserRequestOf(inv)
	if err != nil {
		return none, err
	}
	req := service.RetrieveRequest{Conversation: conv, TabID: inv.flag("tab").(string), OutDir: out,
		TimeoutMs: timeout.Milliseconds(), Browser: b}
	return req, req.Validate()
}

// printRetrieve prints the receipt (with --json) or the zips in words, and
// returns runErr (already printed with --json).
func printRetrieve(inv *invocation, rc *RetrieveReceipt, runErr error) error {
	if inv.json {
		if err := inv.printJSON(rc); err != nil {
			return err
		}
		if runErr != nil {
			return errReported{runErr}
		}
		return nil
	}
	termtext.Zips(inv.stdout, inv.stderr, rc.Zips, rc.Warnings, rc.Path)
	return runErr
}
