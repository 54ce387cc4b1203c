// Command ferry is Ferry's command-line interface. Everything it does lives in
// package cli; this file only wires the process to it.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ferrydesk/ferry/backend/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
