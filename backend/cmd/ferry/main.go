// Command ferry is Ferry's command-line interface. Everything it does lives in
// package cli and, for what needs more than the service layer, package
// clihost; this file only wires the process to them.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ferrydesk/ferry/backend/cli"
	_ "github.com/ferrydesk/ferry/backend/clihost" // the in-process service, serve, sim, verify, doctor
	"github.com/ferrydesk/ferry/backend/config"
)

// stopSignals end a run cleanly: os.Interrupt is Ctrl+C in a terminal and,
// on Windows, Ctrl+C and Ctrl+Break at a console; SIGTERM is kill(1) and,
// on Windows, the console window closing, the user logging off or the
// machine shutting down (Go's runtime maps those console events to it and
// holds the process while it exits).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

func main() {
	config.KeepFilesPrivate() // the data directory holds prompts, answers and cookies
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	code := cli.Main(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
