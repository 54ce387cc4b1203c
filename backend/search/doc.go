// Package search is Ferry's fuzzy search over run history: prompts, answers,
// site, model and artifact file names, ranked, with match positions for
// highlighting, fast enough to run on every keystroke at 100 000 runs.
//
// # Matching
//
// A query is split into terms at white space; a run matches when every term
// matches at least one of its fields. Site, model, file names and prompt
// match in the sense of github.com/sahilm/fuzzy: the term's characters
// appear in order, not necessarily adjacent (a subsequence), compared under
// Unicode simple case folding as sahilm/fuzzy's equalFold does. The answer
// matches only where a term occurs contiguously (case-insensitively): a
// subsequence of a few letters occurs by chance in almost any kilobyte of
// prose. Measured on the benchmark data, "ledger" is a subsequence of 99.6 %
// of answers and a substring of none; with subsequence matching on answers
// every query would match every run. Terms longer than MaxTermRunes runes
// are cut into MaxTermRunes-rune pieces, each a term of its own.
//
// A term found in a field only as a subsequence counts there only when its
// letters keep together (stage two decides it, see compactMatch): they
// follow each other, or skip at most 2+len/4 letters in all ("devtols"
// finds "devtools"); in a file name, the site or the model a jump to a word
// start is free as well ("fb" finds "fix-bug"), in a prompt it is not.
// Letters strewn across a prompt ("hello" in "the help desk lost one log")
// are a chance match, not a hit, and are what is highlighted otherwise.
//
// # Ranking
//
// Search works in two stages so that it never rescans raw text:
//
//  1. Every run that passes the filters is tested against a prepared form of
//     its fields (see Bounds): a character-presence bitset rejects most
//     non-matches without reading the text, a greedy byte-level subsequence
//     match decides the fuzzy fields, and a hashed set of each long field's
//     byte pairs and triples tells, without searching, whether a term can
//     occur contiguously. Each (term, field) pair gets a tier: no match,
//     subsequence, contiguous, contiguous at a word start. The weighted tiers
//     give a structural score; the best runs by (structural score,
//     recency) go on. Whether a run matches is always decided exactly; only
//     the contiguous tiers of long fields may be optimistic here.
//  2. The shortlisted runs are scored with sahilm/fuzzy itself on their
//     original-case text: per (term, field) its score without the
//     unmatched-length penalty (sahilm's ranking prefers short strings, which
//     is right for file names but meaningless for a 1 KiB answer), clamped to
//     ScoreClamp, plus ExactBonus or WordStartBonus when the term occurs
//     contiguously (then sahilm scores the 48-byte window around that
//     occurrence of a long field). Field scores are multiplied by the field
//     weights (file names 4, prompt 3, site and model 2, answer 1) and
//     summed; a run's file-name score is that of its best-matching name.
//
// Hits are ordered by score, then by creation time (newest first), then by
// id, so equal matches list the most recent run first. The shortlist holds
// 2×limit runs (at least 64), so a run whose structural score is far down
// the list cannot reach the hits even if sahilm would score it higher:
// stage one is a ranking heuristic, stage two orders what it kept.
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
// Answers can be 100 KB and more. The index keeps the first
// DefaultAnswerBound (1 KiB) bytes of each answer after collapsing runs of
// white space (code indentation would otherwise fill the window), the first
// DefaultPromptBound (2 KiB) bytes of each prompt, and 256 bytes of each of
// the first 64 file names. The opening of an answer states its subject, and the bound is what
// keeps memory and a keystroke's work in budget at 100 000 runs: both grow
// linearly with it (see WithAnswerBound). Text is stored once, folded to
// lower case rune by rune (so rune offsets carry over), with a bitmap of the
// upper-case positions so the original can be rebuilt for scoring and
// snippets. Prompts, answers and file names are each packed into large
// append-only blocks in the order runs were added, so that a search streams
// through memory instead of chasing one allocation per field.
//
// # Typing
//
// Each search remembers its complete set of matching runs with, per run,
// the tiers of the last term and where its greedy match in the prompt ended
// (one entry per filter set, four filter sets). A query whose terms extend
// the remembered ones (the last term grew, or terms were added) only
// re-tests the remembered runs: a field that did not match cannot match a
// longer term, one that matched only as a subsequence cannot match
// contiguously, the prompt match resumes where it ended, and only the grams
// the new characters add are looked up. Runs added since the entry (slots
// past its end) are tested in full; a run removed or replaced since is
// skipped because removal marks it dead; an entry made before a compaction
// renumbered the slots is not used. The cache thus never returns a stale run
// and needs no invalidation on Add, Update or Remove. Because tiers only fall
// as a term grows, a remembered run whose earlier tiers already rank it
// below the shortlist being built is only checked for a match (usually one
// byte search in its prompt), not rated again; it is rated in full when a
// later keystroke could lift it into the shortlist. Before that test its
// earlier tiers are lowered, without reading any text, by what the fields'
// presence masks rule out for the longer term (a letter a field lacks, a
// first letter that starts no word there) and by the exact site and model
// tiers. To make the bar high from the start, the previous keystroke's
// shortlist is re-rated first and its worst is the floor every other run
// must beat, and the remembered runs are scanned newest block first (on
// equal scores the newer run wins); a run above the bar by its earlier
// tiers has its cheap fields (prompt, site, model, then file names)
// re-rated before its answer, and is only checked for a match when those
// already rule it out. Each remembered run also keeps where the last term
// first occurred in its answer: a longer term can only first occur there
// or later, so its check starts there.
//
// At 100 000 runs a keystroke's cost is not the matching but the scattered
// reads of each remembered run's text. So a remembered run carries a
// window: a copy of the 14 bytes of its prompt that follow the end of the
// greedy match (or, once only the answer matches, of its answer after the
// term's first occurrence there). A keystroke that adds letters found in
// the window, or missing from a window that reaches the end of the prompt,
// is decided without reading the run's text. A one-character term that
// is an ASCII letter or digit is rated from the presence masks alone (their
// bits are exact for those); while typing, where its match ends is then left
// unknown and the next keystroke matches from the prompt's start, but a
// fresh query, whose budget is larger, finds it, so the second letter of a
// query is decided from the windows. A remembered run takes 28 bytes, it is
// rated in place in per-worker scratch space, and the lists are kept at
// their exact size.
//
// A keystroke that does not extend the remembered terms (a backspace, an
// edited or deleted earlier word, another query) searches from scratch;
// TestTypedSearchEqualsFreshSearch walks random typing, backspaces and
// filter changes and checks every keystroke against a search from scratch.
//
// # Concurrency
//
// Add, Update and Remove are serialised among themselves; Search never waits
// for them. Runs live in append-only chunks published through an atomic
// snapshot, and Remove marks a run dead atomically, so a search sees every
// change that completed before it started. Update marks the old version dead
// before publishing the new one: a search running at that instant may miss
// the run, but never lists it twice. A bulk Add folds its runs on all
// workers before taking the writer lock.
package search
