// Package artifact proves the files a model built in its sandbox fit to
// keep, saves them with their provenance, and brings them home through a
// site's mint. It knows no site: a site's record of a conversation, its
// download mint and its hosts live with its provider (ChatGPT's in
// provider/chatgpt, behind provider.ArtifactSource), which hands this
// package the Minter it fetches through. Everything is pure or local file
// I/O, so it is tested and fuzzed without a browser.
//
// The pipeline, one file per step:
//
//   - scan.go: find every /mnt/data/*.zip a text names (Markdown sandbox
//     links, plain paths), message by message, first-seen order, with the
//     message ids the download mint can use; hostile paths are refused and
//     listed.
//   - retrieve.go: mint through the site's Minter, fetch, save; several
//     zips each on their own; the download statuses every fetch maps the
//     same way.
//   - verify.go, zipdir.go, names.go: the verifier (below).
//   - save.go: temporary file, fsync, verify, hard link to a free name,
//     provenance sidecar, directory fsync; unsafe zips go to quarantine/,
//     corrupt ones are deleted. adopt.go finishes a save whose sidecar was
//     never written.
//   - inline.go: the --allow-inline fallback from named fenced code blocks.
//
// # Verification rules
//
// Verify reads the archive through an io.ReaderAt and never trusts
// archive/zip's lenience. An archive is good only when all of these hold:
//
//   - An end record exists (the last one whose comment fits, as archive/zip
//     finds it); zip64 records are read when present and must agree with it;
//     no spanned archives.
//   - The central directory holds exactly the counted records in exactly its
//     declared size, and ends where the end records begin.
//   - Every local header exists, names the same file with the same method and
//     encryption flag as its central record; a data descriptor, if any,
//     agrees with it; a Unicode-path extra field names the same file.
//   - The records tile the file: entries from byte 0, then the directory and
//     end records, with no gap (data before, between or after) and no byte
//     claimed twice (overlapping zip bombs).
//   - Names are UTF-8, relative, without NUL, control characters,
//     backslashes, drive letters or ".." (nor "..."-style spellings), and
//     unique after cleaning, NFC normalisation and case folding; no file is
//     also used as a directory.
//   - No symlink, device, fifo or socket, no setuid or setgid bit, no
//     encryption, only store or deflate.
//   - At most 10000 entries and 2 GiB uncompressed (options), and no entry
//     or archive of 1 MiB or more inflating over 100×.
//   - Every entry inflates to exactly its declared size, with the stored
//     CRC-32 (a stored 0 on non-empty data is reported as crc_missing), consuming exactly
//     its compressed bytes, and at least one regular file exists.
//
// Problems map to three envelope codes: ArtifactCorrupt (damaged,
// truncated, not a zip, empty), ArtifactUnsafe (could harm or hides content)
// and ArtifactTooLarge (over a cap). See Reason.
package artifact
