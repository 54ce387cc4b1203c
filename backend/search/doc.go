// Package search is Ferry's fuzzy search over run history: prompts, answers,
// site, model and artifact file names, ranked, with match positions for
// highlighting, fast enough to run on every keystroke at 100 000 runs.
//
// # Matching
//
// A query is split into terms at white space; a run matches when every term
// is a case-insensitive subsequence (in the sense of github.com/sahilm/fuzzy:
// the term's characters appear in order, not necessarily adjacent) of at least
// one field of the run. Case folding follows Unicode simple folding, as
// sahilm/fuzzy does. Terms longer than MaxTermRunes runes are cut into
// MaxTermRunes-rune pieces, each a term of its own.
//
// # Ranking
//
// Search works in two stages so that it never rescans raw text:
//
//  1. Every run that passes the filters is tested against a prepared form of
//     its fields (bounded, lower-cased, with character-presence bitsets that
//     reject most non-matches without reading the text). Each (term, field)
//     pair gets a tier: no match, subsequence, exact substring, exact
//     substring at a word start. The weighted tiers give a structural score;
//     the best Shortlist(limit) runs by (structural score, recency) go on.
//  2. The shortlisted runs are scored with sahilm/fuzzy itself on their
//     original-case text: per (term, field) its score without the
//     unmatched-length penalty (sahilm's ranking prefers short strings, which
//     is right for file names but meaningless for a 1 KiB answer), clamped to
//     ScoreClamp, plus ExactBonus or WordStartBonus when the term occurs
//     contiguously. Field scores are multiplied by the field weights
//     (file names 4, prompt 3, site and model 2, answer 1) and summed.
//
// Hits are ordered by score, then by creation time (newest first), then by
// id, so equal matches list the most recent run first.
//
// # Positions
//
// Match positions are offsets in Unicode code points (Go runes), never bytes
// or UTF-16 units: in JavaScript index Array.from(text). For the prompt they
// index Doc.Prompt, for a file name Doc.Files[Match.File], for site and model
// Doc.Site and Doc.Model, and for the answer they index Hit.Snippet (the
// answer is stored in a shortened form, see below). When a term occurs
// contiguously in a field the positions mark that occurrence (a word-start
// one first); otherwise they are sahilm/fuzzy's MatchedIndexes.
//
// # Bounds
//
// Answers can be 100 KB and more. The index keeps the first AnswerBound
// (default 1 KiB) bytes of each answer after collapsing runs of white space
// (code indentation would otherwise fill the window), and the first
// PromptBound (2 KiB) bytes of each prompt. The opening of an answer states
// its subject, and the bound is what keeps 100 000 runs near 200 MB and a
// keystroke within budget: the work per query grows linearly with it (see
// WithAnswerBound). Text is stored once, folded to lower case, with a bitmap
// of the upper-case positions so the original can be rebuilt for scoring
// and snippets.
//
// # Typing
//
// Each search remembers its set of matching runs (per filter set, a few
// entries). A query whose terms extend the remembered ones (the last term
// grew, or terms were added) only re-tests the remembered runs, and only the
// fields that matched before, plus any run added since; a run removed since
// is skipped because removal marks it dead. The cache thus never returns a
// stale run and needs no invalidation on Add, Update or Remove.
//
// # Concurrency
//
// Add, Update and Remove are serialised among themselves; Search never waits
// for them. Runs live in append-only chunks published through an atomic
// snapshot, and Remove marks a run dead atomically, so a search sees every
// change that completed before it started.
package search
