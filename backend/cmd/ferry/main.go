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

func main() {
	config.KeepFilesPrivate() // the data directory holds prompts, answers and cookies
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
