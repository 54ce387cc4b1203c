// Package store is Ferry's local database: a badger key-value store opened
// with small-footprint options, one owner process per data directory, a
// documented key layout, a schema version and ordered migrations.
//
// # Ownership
//
// badger allows one process per directory. Open takes that lock without ever
// waiting: when another process (or another Store in this process) holds the
// directory, Open returns an errs.StoreBusy envelope at once, naming the
// holder from the OWNER sidecar that every owner writes next to the data
// ("ferry serve, pid 1234, since 10:02"), or from /proc/locks when the sidecar
// is missing or stale, or "another process" when nothing tells.
//
// # Key layout
//
// Keys are ASCII paths separated by '/'; ids inside keys match ValidID (no
// '/'), so that a prefix scan of one id never reaches another. Numbers that
// must sort are fixed-width big-endian binary.
//
//	key                                   value
//	meta/schema                           schema version, decimal ASCII ("1")
//	meta/migration/<to, %06d>             JSON AppliedMigration, one per migration step run
//	session/<id>                          session record JSON (package job)
//	sessidx/<created ns, 8 bytes BE>/<id> empty: sessions in creation order (newest: ScanReverse)
//	journal/<id>/<seq, 8 bytes BE>        one journal entry JSON of session <id>, in order
//	artifact/<sha256 hex>                 artifact descriptor JSON (the file itself is on disk)
//	template/<name>                       user prompt template JSON {name, description, body, variables, updatedAt}
//	                                      (package prompt/templates; built-in templates are not stored)
//	client/<id>                           gateway client JSON (never a raw token: a hash)
//	hubjob/<id>                           job record JSON of the local API (package core): the
//	                                      request, approval, the session once it runs, its end
//	snapshot/<id>                         the tab when run <id> failed, redacted, with its
//	                                      screenshot (package job; bounded to 3 MiB)
//	login/<site id>                       JSON {loggedIn, firstSeen, lastSeen}: what Ferry last saw of
//	                                      a user's login to the site (package core, the Get started view)
//
// The helpers in keys.go build these keys; use them rather than formatting
// keys by hand.
//
// Values are small: records and metadata, never file bodies (the one
// exception is a failure snapshot's bounded screenshot, kept with its run so
// that a report cannot lose it). Files (zips, exports) live on disk under the data directory and the store
// keeps their path and digest. Put refuses values above MaxValueSize, which is
// kept well below the value-log file size, so a value always fits in one
// value-log file.
//
// # Schema and migrations
//
// A new store is stamped with the newest schema version this build knows.
// Opening an older store runs the registered migrations in order, each step
// in its own transaction that also advances meta/schema and records the step
// under meta/migration/, so a crash between steps resumes at the step that
// did not commit. A store stamped with a version newer than the build knows is
// refused with errs.StoreSchemaNewer and left untouched.
//
// # Durability
//
// Put, Delete and Update return nil only after badger committed the write to
// its write-ahead log. A process killed at any point (SIGKILL) loses no
// acknowledged write; SyncWrites (the default) also fsyncs each commit so an
// acknowledged write survives power loss.
//
// # Free space
//
// badger writes through memory-mapped files it never pre-allocates, so on a
// full disk a write is a SIGBUS that kills the process. Every write (Update,
// Put, Delete, the value-log GC) is admitted only while the disk keeps
// SpaceMargin free beyond it, Open refuses a disk with less than that, and
// Close refuses to flush into a disk without room for the memtable; each
// refusal is an errs.DiskFull envelope naming the directory and the space.
// space.go says how the margin was measured and why a cached free-space
// reading never admits a write into a hole.
package store
