package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
)

// TestClientsFoldersSetWhatAnAgentMayAttach: `ferry clients folders ID`
// lists, allows and takes back the folders a paired agent may attach
// files from, through the running owner; what it sets is what the owner
// holds the agent's jobs to (a file under an allowed folder waits for
// approval, one outside is refused with hub_forbidden).
func TestClientsFoldersSetWhatAnAgentMayAttach(t *testing.T) {
	t.Parallel()
	dd := t.TempDir()
	d := "--data-dir=" + dd
	s := startServe(t, dd)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := ferry(t, nil, "pair", "--json", d)
	var p pairJSON
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &p) != nil || p.Port != s.info.Port {
		t.Fatalf("ferry pair: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	ep, id, err := client.Pair(ctx, p.Port, p.Code, "folder agent")
	if err != nil {
		t.Fatal(err)
	}
	agent := client.New(ep)
	logs, docs, outside := t.TempDir(), t.TempDir(), t.TempDir()
	inLogs, inOutside := filepath.Join(logs, "build.log"), filepath.Join(outside, "secret.txt")
	for _, f := range []string{inLogs, inOutside} {
		if err := os.WriteFile(f, []byte("some bytes\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	folders := func(t *testing.T, args ...string) []string {
		t.Helper()
		r := ferry(t, nil, append([]string{"clients", "folders", id, "--json", d}, args...)...)
		var out struct {
			ID        string   `json:"id"`
			FileRoots []string `json:"fileRoots"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.ID != id {
			t.Fatalf("clients folders %v: exit %d %s %s", args, r.code, r.stdout, r.stderr)
		}
		return out.FileRoots
	}
	attach := func(file string) (hub.Job, error) {
		return agent.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "read it", Files: []string{file}})
	}

	t.Run("a new client has no folder and may attach nothing", func(t *testing.T) {
		if got := folders(t); len(got) != 0 {
			t.Fatalf("folders %v, want none", got)
		}
		r := ferry(t, nil, "clients", "folders", id, d)
		if r.code != 0 || !strings.Contains(r.stdout, "may attach no file: no folder is allowed") {
			t.Fatalf("exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		if _, err := attach(inLogs); !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("a file with no folder allowed: %v, want hub_forbidden", err)
		}
	})
	t.Run("added folders are listed and their files may be attached", func(t *testing.T) {
		if got := folders(t, "--add", logs, "--add", docs, "--add", logs); !reflect.DeepEqual(got, []string{logs, docs}) {
			t.Fatalf("folders %v, want %v", got, []string{logs, docs})
		}
		r := ferry(t, nil, "clients", "folders", id, d)
		if r.code != 0 || !strings.Contains(r.stdout, "may attach files under:\n  "+logs+"\n  "+docs+"\n") {
			t.Fatalf("exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		j, err := attach(inLogs)
		if err != nil || j.State != hub.StateAwaitingApproval {
			t.Fatalf("a file under an allowed folder: %+v %v", j, err)
		}
		if _, err := attach(inOutside); !errs.Has(err, errs.HubForbidden) || errs.From(err).Evidence["file"] != inOutside {
			t.Fatalf("a file outside the folders: %v, want hub_forbidden naming it", err)
		}
	})
	t.Run("a removed folder is taken back", func(t *testing.T) {
		if got := folders(t, "--remove", logs); !reflect.DeepEqual(got, []string{docs}) {
			t.Fatalf("folders %v, want %v", got, []string{docs})
		}
		if _, err := attach(inLogs); !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("a file under a removed folder: %v, want hub_forbidden", err)
		}
	})
	t.Run("bad edits are refused and change nothing", func(t *testing.T) {
		for _, bad := range [][]string{
			{"clients", "folders", id, "--remove", logs, d},
			{"clients", "folders", id, "--add", inLogs, d},
			{"clients", "folders", id, "--add", filepath.Join(outside, "missing"), d},
			{"clients", "list", "--add", logs, d},
			{"clients", "folders", d},
		} {
			if r := ferry(t, nil, bad...); r.code != exitOf(errs.BadInput) {
				t.Fatalf("%v: exit %d %s %s", bad, r.code, r.stdout, r.stderr)
			}
		}
		if r := ferry(t, nil, "clients", "folders", "c_nobody", d); r.code != exitOf(errs.HubNotFound) {
			t.Fatalf("an unknown client: exit %d %s", r.code, r.stderr)
		}
		if got := folders(t); !reflect.DeepEqual(got, []string{docs}) {
			t.Fatalf("folders %v after refused edits, want %v", got, []string{docs})
		}
	})
	t.Run("clear takes every folder back", func(t *testing.T) {
		if got := folders(t, "--clear"); len(got) != 0 {
			t.Fatalf("folders %v after --clear", got)
		}
	})
}
