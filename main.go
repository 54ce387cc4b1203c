// Command ferry-desktop is the Ferry desktop app: the window, over the same
// core as the `ferry` CLI. Everything but the embedded frontend lives in app/.
package main

import (
	"embed"
	"os"

	"github.com/ferrydesk/ferry/app"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	os.Exit(app.Run(assets))
}
