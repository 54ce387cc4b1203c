package cli_test

// The commands and the in-process service that the ferry binary adds to
// the CLI (serve, sim, verify, doctor), for the tests that run the CLI in
// this process.
import _ "github.com/ferrydesk/ferry/backend/clihost"
