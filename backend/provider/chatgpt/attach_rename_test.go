package chatgpt_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestAttachNameTheLibraryHolds: ChatGPT renames a file whose name its
// account's library already holds ("notes.txt" -> "notes(1).txt", providers
// reference); Attach confirms the file by the site's new tile and says the
// name the site used, while a tile that was in the composer before the
// upload, or a new tile of another name, confirms nothing.
func TestAttachNameTheLibraryHolds(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("remember the milk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	files, err := attach.Prepare([]string{notes}, attach.Limits{MaxFiles: 10}, "ChatGPT")
	if err != nil {
		t.Fatal(err)
	}
	attachOn := func(t *testing.T, ctx context.Context, tab *providertest.Tab) ([]string, error) {
		t.Helper()
		at, ok := tab.Adapter.(provider.Attacher)
		if !ok {
			t.Fatal("the ChatGPT adapter attaches no files")
		}
		if err := tab.Adapter.Ready(ctx); err != nil {
			t.Fatal(err)
		}
		return at.Attach(ctx, files)
	}

	t.Run("a second file of the same name is confirmed by the site's renamed tile", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		tab := providertest.Open(t, ctx, sim.ChatGPT, factory, providertest.Setup{})
		for i, want := range []string{"notes.txt", "notes(1).txt", "notes(2).txt"} {
			if i > 0 {
				// A new question: the composer is empty again, the library keeps its files.
				if err := tab.Page.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
					t.Fatal(err)
				}
			}
			got, err := attachOn(t, ctx, tab)
			if err != nil {
				t.Fatalf("attach %d: %v", i+1, err)
			}
			if !reflect.DeepEqual(got, []string{want}) {
				t.Fatalf("attach %d: the tile names %v, want [%s]", i+1, got, want)
			}
			ups := tab.H.Server.Uploads(sim.ChatGPT)
			if len(ups) != i+1 || ups[i].Name != want {
				t.Fatalf("the library holds %+v, want its file %d named %s", ups, i+1, want)
			}
		}
	})

	// The page drops Ferry's file (no tile of its own ever shows) while
	// tiles of other files are there: none of them may confirm it.
	unconfirmed := func(t *testing.T, setup string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		tab := providertest.Open(t, ctx, sim.ChatGPT, factory, providertest.Setup{Scenario: sim.ScenarioUploadNoTile})
		if err := tab.Adapter.Ready(ctx); err != nil {
			t.Fatal(err)
		}
		// The send control is enabled, as it would be for a confirmed file.
		if err := tab.Adapter.Compose(ctx, "Summarise the notes"); err != nil {
			t.Fatal(err)
		}
		if _, err := tab.Page.Eval(ctx, setup); err != nil {
			t.Fatal(err)
		}
		got, err := attachOn(t, ctx, tab)
		if errs.CodeOf(err) != errs.AttachmentUnconfirmed {
			t.Fatalf("attach: %v (tiles %v), want attachment_unconfirmed", err, got)
		}
	}
	const tile = `(name) => { const t = document.createElement('div'); t.setAttribute('role', 'group'); t.setAttribute('aria-label', name);
  t.className = 'file-tile'; t.textContent = name; document.querySelector('.file-tray').appendChild(t); }`
	t.Run("a tile in the composer before the upload confirms nothing", func(t *testing.T) {
		unconfirmed(t, `() => { const tile = `+tile+`; tile('notes.txt'); tile('notes(1).txt'); }`)
	})
	t.Run("a new tile of another name confirms nothing", func(t *testing.T) {
		unconfirmed(t, `() => { const tile = `+tile+`;
  document.querySelector('#upload-files').addEventListener('change', () => {
    for (const n of ['mynotes(1).txt', 'notes(1).csv', 'notes(x).txt', 'notes().txt', 'notes.txt(1)']) tile(n);
  }); }`)
	})
}
