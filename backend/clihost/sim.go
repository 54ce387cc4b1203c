package clihost

import (
	"context"
	"flag"
	"fmt"
	"github.com/ferrydesk/ferry/backend/cli"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

func init() {
	cli.Register(cli.Command{
		Name:  "sim",
		Args:  "[--addr 127.0.0.1:0] [--chunk N] [--interval 30ms] [--scenario NAME]",
		Short: "serve the local simulator of the seven chat sites, for demos and manual tests",
		Long: `Serves ChatGPT, Gemini, AI Studio, Grok, Claude, Kimi and DeepSeek stand-ins over
HTTPS on one loopback port and prints the Chromium flags that make the real
hostnames load from it. Start a browser with those flags and a throw-away
profile (never your real one), open https://chatgpt.com/__sim/ for the list of
scenarios, and pick a scenario per prompt with a directive line such as
[[sim:scenario=code_zip]], or for every prompt with --scenario (by_contract
answers a code-mode prompt with its zip, as the desktop's demo does). Stops on Ctrl+C. Nothing here reaches the real sites.`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
			fs.Int("chunk", 6, "characters per streamed chunk")
			fs.Duration("interval", 30*time.Millisecond, "pause between streamed chunks")
			fs.String("scenario", "", "scenario of every site and prompt without a directive (\"name key=value ...\")")
		},
		Run: runSim,
	})
}

func runSim(ctx context.Context, inv *cli.Invocation) error {
	addr := inv.Flag("addr").(string)
	if !strings.HasPrefix(addr, "127.") && !strings.HasPrefix(addr, "localhost:") && !strings.HasPrefix(addr, "[::1]:") {
		return errs.New(errs.BadInput, "--addr %q is not a loopback address", addr).WithHint("use 127.0.0.1:PORT: the simulator must not be reachable from other machines")
	}
	opts := []sim.Option{sim.WithPace(inv.Flag("chunk").(int), inv.Flag("interval").(time.Duration))}
	if spec := inv.Flag("scenario").(string); spec != "" {
		sc, err := sim.ParseScenario("scenario=" + spec)
		if err != nil {
			return errs.Wrap(err, errs.BadInput, "--scenario: %v", err).WithHint("see the list at https://chatgpt.com/__sim/ once the simulator runs")
		}
		opts = append(opts, sim.WithScenario("", sc))
	}
	s := sim.New(opts...)
	if err := s.Start(ctx, addr); err != nil {
		return errs.Wrap(err, errs.BadInput, "start the simulator on %s: %v", addr, err)
	}
	defer s.Close()
	flags := s.ChromiumFlags()
	if inv.JSON() {
		if err := inv.PrintJSON(map[string]any{"addr": s.Addr(), "chromiumFlags": flags, "index": sim.URL(sim.ChatGPT, "/__sim/")}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(inv.Stdout(), "simulator listening on %s\n\nstart a throw-away Chromium against it:\n  chromium --user-data-dir=$(mktemp -d) %s %s\n\nscenarios: %s\nstop with Ctrl+C\n",
			s.Addr(), shellQuote(flags[0]), strings.Join(flags[1:], " "), sim.URL(sim.ChatGPT, "/__sim/"))
	}
	<-ctx.Done()
	return nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
