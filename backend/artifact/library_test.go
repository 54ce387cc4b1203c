package artifact

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestLibrary(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	prov := Provenance{Site: "chatgpt", ConversationURL: "https://chatgpt.com/c/abc"}

	good, err := Save(ctx, dir, "good.zip", bytes.NewReader(goZip(t, goEntry{name: "app/main.go", data: "package main\n"})), prov, fixedClock)
	if err != nil {
		t.Fatalf("save the good zip: %v", err)
	}
	slip, _ := Save(ctx, dir, "slip.zip", bytes.NewReader(goZip(t, goEntry{name: "../../.ssh/authorized_keys", data: "ssh-rsa x"})), prov, fixedClock)
	if slip == nil || !slip.Quarantined {
		t.Fatalf("the zip-slip archive was not quarantined: %+v", slip)
	}
	changed, err := Save(ctx, dir, "changed.zip", bytes.NewReader(goZip(t, goEntry{name: "a.txt", data: "one"})), prov, fixedClock)
	if err != nil {
		t.Fatal(err)
	}
	tampered := goZip(t, goEntry{name: "a.txt", data: "two"})
	if err := os.WriteFile(changed.Path, tampered, 0o644); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.zip")
	if err := os.WriteFile(bare, goZip(t, goEntry{name: "x.txt", data: "x"}), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.zip")
	if err := os.WriteFile(broken, goZip(t, goEntry{name: "y.txt", data: "y"}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken+SidecarSuffix, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Neither a temporary nor a sidecar is an item.
	if err := os.WriteFile(filepath.Join(dir, ".ferry-123.zip.part"), []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}

	items, err := Library(ctx, dir)
	if err != nil {
		t.Fatalf("Library: %v", err)
	}
	byName := map[string]Item{}
	for _, it := range items {
		byName[it.Name] = it
	}
	if len(items) != 5 {
		t.Fatalf("library lists %d items (%v), want 5", len(items), byName)
	}

	cases := []struct {
		name, file string
		status     Status
		reason     string
	}{
		{"a saved good zip is verified", "good.zip", StatusVerified, ""},
		{"a quarantined zip says which rule it broke", "slip.zip", StatusQuarantined, string(ReasonUnsafeName)},
		{"a zip changed after verification is unverified", "changed.zip", StatusUnverified, ReasonChanged},
		{"a zip without a sidecar is unverified", "bare.zip", StatusUnverified, ReasonNoProvenance},
		{"a zip with a malformed sidecar is unverified", "broken.zip", StatusUnverified, ReasonBadProvenance},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			it, ok := byName[c.file]
			if !ok {
				t.Fatalf("%s is not listed", c.file)
			}
			if it.Status != c.status || it.Reason != c.reason {
				t.Errorf("status %s reason %q, want %s %q (why: %s)", it.Status, it.Reason, c.status, c.reason, it.Why)
			}
			if c.status != StatusVerified && it.Why == "" {
				t.Errorf("a %s zip does not say why", it.Status)
			}
			if !filepath.IsAbs(it.Path) {
				t.Errorf("path %q is not absolute", it.Path)
			}
		})
	}

	t.Run("a verified zip carries its size, digest and file list", func(t *testing.T) {
		it := byName["good.zip"]
		st, _ := os.Stat(good.Path)
		if it.Size != st.Size() || it.SHA256 != good.Verdict.SHA256 {
			t.Errorf("size %d sha %s, want %d %s", it.Size, it.SHA256, st.Size(), good.Verdict.SHA256)
		}
		if len(it.Files) != 1 || it.Files[0].Name != "app/main.go" || it.Site != "chatgpt" {
			t.Errorf("files %+v site %q", it.Files, it.Site)
		}
		if it.Path != good.Path {
			t.Errorf("path %q, want %q", it.Path, good.Path)
		}
	})

	t.Run("the newest file comes first", func(t *testing.T) {
		later := time.Now().Add(time.Hour)
		if err := os.Chtimes(bare, later, later); err != nil {
			t.Fatal(err)
		}
		items, err := Library(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if items[0].Name != "bare.zip" {
			t.Errorf("first item %s, want bare.zip", items[0].Name)
		}
	})

	t.Run("a missing directory is an empty library", func(t *testing.T) {
		items, err := Library(ctx, filepath.Join(dir, "nope"))
		if err != nil || items == nil || len(items) != 0 {
			t.Errorf("Library(missing) = %v, %v; want an empty list", items, err)
		}
	})
}
