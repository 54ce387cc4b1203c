// Package clients keeps the agents that may use the owner's local API: the
// paired clients (a token each, stored only as its digest), the agent
// clients a face of the user's acts as (EnsureAgent), the user's settings
// for each (auto-approve, the grant of existing conversations, file
// roots), and the one-time pairing codes with their guessing limits. The
// service's implementation (core) is its only user: the gateway asks the
// service, never this package.
package clients
