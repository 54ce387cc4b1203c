//go:build gui

package guitest

// The simulator serves the sites registered from their folders: linking
// them in gives the simulator these tests start every built-in site.
import _ "github.com/ferrydesk/ferry/backend/provider/all"
