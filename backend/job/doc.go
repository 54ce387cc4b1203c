// Package job is the pipeline of one run as a crash-safe state machine: a
// Session record in the store, a journal of every state it entered, and a
// Runner that drives a provider.Adapter through the states. The Runner is
// the one sequencer of a turn: the application's runs and the adapters'
// conformance suite (provider/providertest) both go through it.
//
// # States
//
//	resolved -> preflighted -> composed -> submitting -> submitted -> streaming
//	         -> completed -> extracted -> [artifacts_retrieved -> artifacts_verified] -> done
//	any non-terminal state -> failed (with an errs envelope) | cancelled | stale
//
// Each state is written to the store, and the write acknowledged, before the
// side effect it guards: `submitting` (with the submission fingerprint) is on
// disk before the click on send, `submitted` (the fingerprint confirmed)
// before the answer is awaited. A process killed at any point therefore
// leaves a record that says exactly how far the run got.
//
// # Reattach
//
// Runner.Reattach resumes a run from its journaled state without sending its
// prompt twice. States before `submitting` are redone (nothing left the
// browser). At `submitting` nobody knows whether the click happened, so the
// conversation is searched for the user turn first (TurnFinder) and the
// finding is reported; only a turn that is certainly absent is sent. From
// `submitted` on the run only collects: it finds the turn, waits for the end
// of the answer and extracts it.
//
// # Storage
//
// The Repo keeps session/<id> (the record's JSON), sessidx/<created>/<id>
// (creation order) and journal/<id>/<seq> (one Entry per state change), all
// written in one transaction per change, and a search.Index over the records
// rebuilt at Open and updated on every write.
package job
