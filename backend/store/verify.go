package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"

	"github.com/ferrydesk/ferry/backend/errs"
)

// manifestFile is badger's list of the tables that make up the store.
const manifestFile = "MANIFEST"

// corruptHint is the retry hint of every damaged-store envelope.
const corruptHint = "run `ferry doctor` to see what is damaged; `ferry sessions restore` brings back the newest backup and keeps the damaged store aside"

// Verification is what Verify found in a sound store.
type Verification struct {
	Tables int   // table files whose every block passed its checksum
	Bytes  int64 // their total size
}

// Verify checks the store in dir without writing to it: a store with table
// or value-log files must have its MANIFEST, and every table the MANIFEST
// lists must exist and pass badger's checksum on each of its blocks. An
// empty or missing dir is sound (nothing to verify).
//
// Errors: an errs.StoreCorrupt envelope naming the damaged file (evidence
// "dir" and "file"), with a hint naming `ferry doctor` and `ferry sessions
// restore`; errs.StoreIO when a file cannot be read for another reason.
//
// Verify must not run while another process writes the store: Open calls it
// before badger takes the directory, and only when no one holds it.
func Verify(dir string) (Verification, error) {
	var v Verification
	manifest, err := readManifest(dir)
	if err != nil || manifest == nil {
		return v, err
	}
	ids := make([]uint64, 0, len(manifest.Tables))
	for id := range manifest.Tables {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	// Tables are independent: check them on every core, which halves an
	// open's wait on a two-core machine. The damage reported is that of
	// the lowest-numbered damaged table, whatever finished first.
	sizes := make([]int64, len(ids))
	errsByTable := make([]error, len(ids))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				sizes[i], errsByTable[i] = verifyTable(table.NewFilename(ids[i], dir), manifest.Tables[ids[i]])
			}
		}()
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	for i := range ids {
		if errsByTable[i] != nil {
			return Verification{}, errsByTable[i]
		}
		v.Tables++
		v.Bytes += sizes[i]
	}
	return v, nil
}

// readManifest returns the manifest of the store in dir, or nil when dir
// holds no store yet. Table or value-log files without a MANIFEST are
// errs.StoreCorrupt: badger would start a new manifest and delete every
// table it does not list, that is all of them.
func readManifest(dir string) (*badger.Manifest, error) {
	f, err := os.Open(filepath.Join(dir, manifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		data, lerr := dataFiles(dir)
		if lerr != nil {
			return nil, errs.Wrap(lerr, errs.StoreIO, "list store directory %s: %v", dir, rootCause(lerr)).WithEvidence("dir", dir)
		}
		if len(data) == 0 {
			return nil, nil
		}
		return nil, corrupt(dir, filepath.Join(dir, manifestFile),
			"the store in %s has %d data file(s) (%s) but no %s, the list of its tables; it is not opened, so that nothing in it is deleted",
			dir, len(data), strings.Join(data, ", "), manifestFile)
	}
	if err != nil {
		return nil, errs.Wrap(err, errs.StoreIO, "read %s: %v", filepath.Join(dir, manifestFile), rootCause(err)).WithEvidence("dir", dir)
	}
	defer f.Close()
	m, _, err := badger.ReplayManifestFile(f, 0, badger.DefaultOptions(dir))
	if err != nil {
		return nil, errs.Wrap(err, errs.StoreCorrupt, "the store's %s in %s cannot be read: %v", manifestFile, dir, err).
			WithEvidence("dir", dir).WithEvidence("file", f.Name()).WithHint(corruptHint)
	}
	return &m, nil
}

// dataFiles lists the table and value-log files in dir, sorted; a missing
// dir has none.
func dataFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && (strings.HasSuffix(n, ".sst") || strings.HasSuffix(n, ".vlog")) {
			names = append(names, n)
		}
	}
	return names, nil
}

// verifyTable checks every block of one table file against its checksum,
// reading it through a private read-only mapping. It returns the file's size.
func verifyTable(name string, tm badger.TableManifest) (size int64, err error) {
	dir := filepath.Dir(name)
	if tm.KeyID != 0 {
		// Ferry never encrypts its store; a table that says it is
		// encrypted was not written by Ferry as it is now.
		return 0, corrupt(dir, name, "the table %s in the store %s is marked encrypted, which Ferry's store never is", filepath.Base(name), dir)
	}
	st, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, corrupt(dir, name, "the table %s listed in the store's %s is missing from %s", filepath.Base(name), manifestFile, dir)
	}
	if err != nil {
		return 0, errs.Wrap(err, errs.StoreIO, "read table %s: %v", name, rootCause(err)).WithEvidence("dir", dir).WithEvidence("file", name)
	}
	if _, ok := table.ParseFileID(filepath.Base(name)); !ok {
		return 0, corrupt(dir, name, "the store's %s in %s lists a table under a name badger cannot parse: %s", manifestFile, dir, filepath.Base(name))
	}
	mf, err := z.OpenMmapFile(name, os.O_RDONLY, 0)
	if err != nil {
		return 0, errs.Wrap(err, errs.StoreIO, "read table %s: %v", name, err).WithEvidence("dir", dir).WithEvidence("file", name)
	}
	// With a parsable name and a readable file, OpenTable leaves the
	// mapping to its caller whatever happens; Close(-1) unmaps without
	// truncating.
	defer mf.Close(-1)
	defer func() {
		// badger's table code panics on some damage (an index offset past
		// the end, a block that does not decompress): that is damage too.
		if r := recover(); r != nil {
			err = corrupt(dir, name, "the table %s in the store %s is damaged: %v", filepath.Base(name), dir, r)
		}
	}()
	t, err := table.OpenTable(mf, table.Options{
		ChkMode:     options.NoVerification, // verified below, with the error returned rather than the table skipped
		Compression: tm.Compression,
		BlockSize:   4 << 10,
	})
	if err != nil {
		return 0, corrupt(dir, name, "the table %s in the store %s is damaged: %v", filepath.Base(name), dir, err)
	}
	if err := t.VerifyChecksum(); err != nil {
		return 0, corrupt(dir, name, "the table %s in the store %s is damaged: %v", filepath.Base(name), dir, err)
	}
	return st.Size(), nil
}

// corrupt is the errs.StoreCorrupt envelope for a damaged file of the store.
func corrupt(dir, file, format string, args ...any) *errs.Envelope {
	return errs.New(errs.StoreCorrupt, format, args...).
		WithEvidence("dir", dir).
		WithEvidence("file", file).
		WithHint(corruptHint)
}
