//go:build gui

package guitest

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAgentsSettings: Settings → Agents lists each coding agent's snippet
// naming the ferry CLI installed beside the app, and, once an agent has
// used Ferry through `ferry mcp`, that agent with its approval rule, which
// the toggle changes, and its allowed folders, which Add folder… and the
// remove buttons change.
func TestAgentsSettings(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	// The ferry CLI beside the app, as the packages install them.
	cliBin := filepath.Join(filepath.Dir(bin), "ferry")
	build := exec.Command("go", "build", "-o", cliBin, "./backend/cmd/ferry")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the ferry CLI: %v\n%s", err, out)
	}
	b := launchBrowser(t)
	dir := t.TempDir()
	deadBrowserSettings(t, dir)
	// The dev binary answers the folder dialog with this folder.
	allowed := t.TempDir()
	app := startDevAppEnv(t, bin, dir, []string{"FERRY_DEV_FOLDER_DIALOG=" + allowed})
	page := openShell(t, b, app.url)
	page.MustElement(`[role=tab][data-view=settings]`).MustClick()

	t.Run("each agent's snippet names the ferry CLI beside the app", func(t *testing.T) {
		page.MustElement(`[data-testid=no-mcp-clients]`)
		for _, agent := range []string{"claude", "codex", "cursor", "gemini"} {
			row := page.MustElement(`[data-testid=mcp-configs] [data-agent=` + agent + `]`)
			row.MustElement(`[data-testid=copy-mcp-config]`)
			if txt := row.MustText(); strings.Contains(txt, "not found") {
				t.Errorf("%s: %q says the CLI was not found beside the app", agent, txt)
			}
		}
		got := page.MustEval(`async () => (await window.go.app.Gateway.MCPConfigs()).find((c) => c.name === 'codex').snippet`).Str()
		if want := "command = \"" + cliBin + "\""; !strings.Contains(got, want) {
			t.Errorf("codex snippet %q lacks %s", got, want)
		}
	})

	t.Run("an agent that used ferry mcp is listed, asking every time until the toggle lets it run", func(t *testing.T) {
		cmd := exec.Command(cliBin, "mcp")
		cmd.Env = isolatedEnv(dir)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		ctx, cancel := context.WithTimeout(context.Background(), eventWithin)
		defer cancel()
		cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-code", Version: "test"}, nil).
			Connect(ctx, &mcpsdk.IOTransport{Reader: stdout, Writer: stdin}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		if _, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "templates", Arguments: map[string]any{}}); err != nil {
			t.Fatal(err)
		}
		// The list is read when the view opens.
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		page.MustElement(`[role=tab][data-view=settings]`).MustClick()
		row := page.MustElementR(`[data-testid=mcp-clients] li`, "claude-code")
		if rule := row.MustElement(`[data-testid=approval-rule]`).MustText(); !strings.HasPrefix(rule, "Asks every time") {
			t.Errorf("a new agent's rule reads %q", rule)
		}
		row.MustElement(`[data-testid=mcp-auto-approve]`).MustClick()
		page.MustWait(`() => [...document.querySelectorAll('[data-testid=mcp-clients] li')].some((li) => li.textContent.includes('claude-code') && li.querySelector('[data-testid=approval-rule]').textContent.startsWith('Runs without asking'))`)
		auto := page.MustEval(`async () => (await window.go.app.Gateway.Clients()).find((c) => c.name === 'claude-code' && c.kind === 'mcp').autoApprove`).Bool()
		if !auto {
			t.Error("the toggle did not set the agent to auto-approve")
		}
	})

	t.Run("a folder added for the agent is listed, allowed, and removable", func(t *testing.T) {
		row := page.MustElementR(`[data-testid=mcp-clients] li`, "claude-code")
		folders := row.MustElement(`[data-testid=agent-folders]`)
		if txt := folders.MustText(); !strings.Contains(txt, "may attach only files under these folders") || !strings.Contains(txt, "With none, it may attach no file") {
			t.Errorf("the folders' help reads %q", txt)
		}
		folders.MustElement(`[data-testid=add-folder]`).MustClick()
		page.MustElementR(`[data-testid=mcp-clients] [data-testid=folder-list] li code`, regexp.QuoteMeta(allowed))
		roots := page.MustEval(`async () => (await window.go.app.Gateway.Clients()).find((c) => c.name === 'claude-code' && c.kind === 'mcp').fileRoots`).Arr()
		if len(roots) != 1 || roots[0].Str() != allowed {
			t.Fatalf("the agent's folders are %v, want [%s]", roots, allowed)
		}
		page.MustElement(`[data-testid=mcp-clients] [data-testid=remove-folder]`).MustClick()
		page.MustWait(`() => !document.querySelector('[data-testid=mcp-clients] [data-testid=folder-list]')`)
		left := page.MustEval(`async () => (await window.go.app.Gateway.Clients()).find((c) => c.name === 'claude-code' && c.kind === 'mcp').fileRoots || []`).Arr()
		if len(left) != 0 {
			t.Fatalf("the agent's folders after the removal: %v", left)
		}
	})
	app.stop(t)
}
