package cli

import (
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// The commands written once against service.Service reach the backend
// through the service layer only: whichever implementation answers, they
// cannot reach around it to the store, the browser or a site.
func TestServiceCommandsImportOnlyTheServiceLayer(t *testing.T) {
	const backend = "github.com/ferrydesk/ferry/backend/"
	allowed := map[string]bool{"service": true, "errs": true, "config": true, "version": true}
	for _, file := range []string{"poll.go", "tabs.go", "sessions.go", "templates.go"} {
		t.Run(file+" imports only service, errs, config and version from the backend", func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					t.Fatal(err)
				}
				if rest, ok := strings.CutPrefix(path, backend); ok && !allowed[rest] {
					t.Errorf("%s imports %s", file, path)
				}
			}
		})
	}
}
