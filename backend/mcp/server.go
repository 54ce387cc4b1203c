package mcp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"unicode"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Options configures a Server.
type Options struct {
	// Version is the Ferry version the server reports in its
	// serverInfo.
	Version string
	// Logger receives the server's logs (stderr in production: stdout
	// carries only protocol messages); nil discards them.
	Logger *slog.Logger
	// OutRoots lists the directories an out_dir must lie in (each
	// absolute); nil or empty refuses every out_dir, and the zips stay in
	// Ferry's artifacts directory.
	OutRoots func() []string
	// PendingDir keeps the out_dir of each code job this server started
	// until its zips were copied there, so that a later server copies them
	// when this one is gone ("": only in memory).
	PendingDir string
}

// Server is Ferry's MCP server over a service.Service.
type Server struct {
	svc  service.Service
	opts Options
	log  *slog.Logger
	sdk  *mcpsdk.Server

	mu sync.Mutex
	// partial is the answer so far of the jobs this process watched.
	partial map[string]string
	// outDirs are the out_dir of the code jobs this process started, kept
	// until their zips were copied there.
	outDirs map[string]string
}

// fallbackName names the agent of a client that sent no clientInfo.name.
const fallbackName = "mcp client"

// New builds the server on svc with its tools and resources registered.
func New(svc service.Service, opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{svc: svc, opts: opts, log: log, partial: map[string]string{}, outDirs: map[string]string{}}
	s.sdk = mcpsdk.NewServer(&mcpsdk.Implementation{Name: "ferry", Title: "Ferry", Version: opts.Version}, &mcpsdk.ServerOptions{
		Instructions: instructions,
		Logger:       log,
		Capabilities: &mcpsdk.ServerCapabilities{},
	})
	s.addJobTools()
	s.addSessionTools()
	s.addRegistryTools()
	s.addResources()
	return s
}

const instructions = "Ferry drives the user's logged-in AI chat sites (ChatGPT, Claude, Gemini…) in their own browser. " +
	"ask sends a prompt and returns the answer; code asks for verified zips. A call returns within wait_s: " +
	"when it returns state \"running\" or \"awaiting_approval\", poll the job tool with its job_id. " +
	"Errors carry a code, a message and what to do; Ferry never retries a blocked site behind your back."

// Run serves one MCP session over t (stdio in production) until the client
// goes or ctx ends. Errors: the transport's.
func (s *Server) Run(ctx context.Context, t mcpsdk.Transport) error {
	if err := s.sdk.Run(ctx, t); err != nil {
		return fmt.Errorf("serve mcp: %w", err)
	}
	return nil
}

// SDK is the SDK server, for tests that connect it in memory.
func (s *Server) SDK() *mcpsdk.Server { return s.sdk }

// caller is the agent the session of req acts as: the agent client named
// after the MCP client's clientInfo.name, made once by the owner. Errors:
// errs.HubUnauthorized for a client the user revoked; EnsureAgent's.
func (s *Server) caller(ctx context.Context, ss *mcpsdk.ServerSession) (service.Caller, service.ClientInfo, error) {
	name := fallbackName
	if ss != nil {
		if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
			if n := agentName(p.ClientInfo.Name); n != "" {
				name = n
			}
		}
	}
	info, err := s.svc.EnsureAgent(ctx, service.Owner(service.FaceMCP), service.EnsureAgentRequest{Name: name, Kind: service.AgentKindMCP})
	if err != nil {
		return service.Caller{}, service.ClientInfo{}, err
	}
	if info.RevokedAt != nil {
		return service.Caller{}, info, errs.New(errs.HubUnauthorized, "the agent %q (%s) was revoked in Ferry", info.Name, info.ID).
			WithHint("the user revoked this agent in Ferry; nothing is sent for it until the user allows it again")
	}
	return service.Agent(info.ID), info, nil
}

// maxName is the longest client name Ferry keeps.
const maxName = 64

// agentName is a clientInfo.name as a client name: its printable
// characters, at most maxName of them.
func agentName(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, name)
	if r := []rune(strings.TrimSpace(name)); len(r) > maxName {
		name = string(r[:maxName])
	}
	return strings.TrimSpace(name)
}
