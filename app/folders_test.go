package app

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// TestGatewayClientFolders: the window picks a folder through the desktop's
// folder dialog and sets a client's allowed folders through the owner's
// Service, as its gateway then holds the client's jobs to them.
func TestGatewayClientFolders(t *testing.T) {
	sh, _, _ := openShell(t, func(dataDir string) {
		if err := os.WriteFile(filepath.Join(dataDir, "settings.json"), []byte(`{"browser": {"attachURL": "http://127.0.0.1:1"}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	logs, docs := t.TempDir(), t.TempDir()
	g := &Gateway{sh: sh, desk: &fakeDesktop{folder: logs}}
	srv := sh.hubServer()
	if srv == nil {
		t.Fatal("the hub did not start")
	}
	agent := sh.pairAgent(t, "codex")

	t.Run("the folder dialog's choice is returned", func(t *testing.T) {
		if got, err := g.ChooseFolder(); err != nil || got != logs {
			t.Fatalf("ChooseFolder: %q, %v", got, err)
		}
		if got, err := (&Gateway{sh: sh, desk: &fakeDesktop{}}).ChooseFolder(); err != nil || got != "" {
			t.Fatalf("a cancelled dialog: %q, %v", got, err)
		}
	})
	t.Run("folders set are the client's and listed with it", func(t *testing.T) {
		out, err := g.SetClientFolders(agent.Client, []string{logs, docs})
		if err != nil || !reflect.DeepEqual(out.FileRoots, []string{logs, docs}) {
			t.Fatalf("set: %+v, %v", out, err)
		}
		list, err := g.Clients()
		if err != nil || len(list) != 1 || !reflect.DeepEqual(list[0].FileRoots, []string{logs, docs}) {
			t.Fatalf("clients %+v, %v", list, err)
		}
		if out, err := g.SetClientFolders(agent.Client, nil); err != nil || len(out.FileRoots) != 0 {
			t.Fatalf("clear: %+v, %v", out, err)
		}
	})
	t.Run("a relative folder and an unknown client are refused", func(t *testing.T) {
		if _, err := g.SetClientFolders(agent.Client, []string{"logs"}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("relative: %v", err)
		}
		if _, err := g.SetClientFolders("c_nobody", []string{logs}); !errs.Has(err, errs.HubNotFound) {
			t.Fatalf("unknown client: %v", err)
		}
	})
}
