package artifact

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestScanTextFindsZipsInAStreamedAnswer(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"a plain path on its own line", "Here it is:\n/mnt/data/app.zip\n", []string{"/mnt/data/app.zip"}},
		{"a path ending a sentence", "Saved to /mnt/data/app.zip.", []string{"/mnt/data/app.zip"}},
		{"a path in backticks", "Saved to `/mnt/data/app.zip`.", []string{"/mnt/data/app.zip"}},
		{"a link and the same plain path", "[app](sandbox:/mnt/data/app.zip)\n/mnt/data/app.zip", []string{"/mnt/data/app.zip"}},
		{"several zips in order", "/mnt/data/b.zip then /mnt/data/a.zip then /mnt/data/b.zip", []string{"/mnt/data/b.zip", "/mnt/data/a.zip"}},
		{"a zip in a subdirectory", "/mnt/data/out/app.zip", []string{"/mnt/data/out/app.zip"}},
		{"an upper-case extension", "/mnt/data/APP.ZIP", []string{"/mnt/data/APP.ZIP"}},
		{"a non-zip file", "/mnt/data/app.tar.gz and /mnt/data/notes.md", nil},
		{"a dot-dot escape", "/mnt/data/../../etc/x.zip", nil},
		{"a percent-encoded escape", "[x](sandbox:/mnt/data/%2e%2e/x.zip)", nil},
		{"a hidden file name", "/mnt/data/.zip and /mnt/data/.secret.zip", nil},
		{"a path outside the sandbox", "[x](sandbox:/etc/x.zip)", nil},
		{"a doubled slash", "/mnt/data//x.zip", nil},
		{"a path with a tab in a link", "[x](sandbox:/mnt/data/a\tb.zip)", nil},
	}
	for _, c := range cases {
		t.Run(c.name+" gives "+strings.Join(c.want, ","), func(t *testing.T) {
			r := ScanText(c.text, "m1")
			var got []string
			for _, z := range r.Zips {
				got = append(got, z.Path)
				if !reflect.DeepEqual(z.MessageIDs, []string{"m1"}) {
					t.Errorf("%s: message ids %v", z.Path, z.MessageIDs)
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("zips = %q, want %q (rejected %+v)", got, c.want, r.Rejected)
			}
		})
	}
}

func TestValidateSandboxPath(t *testing.T) {
	for _, ok := range []string{"/mnt/data/x.zip", "/mnt/data/a b.zip", "/mnt/data/d/x.zip"} {
		if err := ValidateSandboxPath(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"/mnt/data/x.txt", "/mnt/data/../x.zip", "/tmp/x.zip", "/mnt/data/x%20.zip", "mnt/data/x.zip", "/mnt/data/a\nb.zip"} {
		if err := ValidateSandboxPath(bad); !errs.Has(err, errs.BadInput) {
			t.Errorf("%q accepted or wrong error: %v", bad, err)
		}
	}
}
