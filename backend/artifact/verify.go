package artifact

import (
	"bufio"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"sort"
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Default limits of Verify. ChatGPT's sandbox builds source trees: these are
// far above any honest project and far below what would hurt the machine.
const (
	DefaultMaxEntries   = 10000
	DefaultMaxTotalSize = 2 << 30 // bytes, uncompressed
	DefaultMaxRatio     = 100
	// DefaultRatioFloor exempts small entries from the ratio rule: a 4 KiB
	// file of spaces legitimately deflates 200×, and a bomb needs bulk to hurt.
	DefaultRatioFloor = 1 << 20
)

type verifyConfig struct {
	maxEntries uint64
	maxTotal   uint64
	maxRatio   uint64
	ratioFloor uint64
}

// VerifyOption changes a limit of Verify.
type VerifyOption func(*verifyConfig)

// WithMaxEntries caps the number of entries (directories included).
func WithMaxEntries(n int) VerifyOption {
	return func(c *verifyConfig) { c.maxEntries = uint64(max(n, 0)) }
}

// WithMaxTotalSize caps the total uncompressed size in bytes.
func WithMaxTotalSize(n int64) VerifyOption {
	return func(c *verifyConfig) { c.maxTotal = uint64(max(n, 0)) }
}

// WithMaxRatio caps uncompressed/compressed per entry and for the archive.
func WithMaxRatio(r int) VerifyOption {
	return func(c *verifyConfig) { c.maxRatio = uint64(max(r, 1)) }
}

// WithRatioFloor sets the uncompressed size below which the ratio rule does
// not apply (per entry and for the archive).
func WithRatioFloor(n int64) VerifyOption {
	return func(c *verifyConfig) { c.ratioFloor = uint64(max(n, 0)) }
}

// Verify checks the zip archive of the given size read through r, without
// loading it: the end records and central directory are parsed here, every
// local header is compared with its central record, the byte ranges of all
// records must tile the file with no gap or overlap, names, modes, flags and
// sizes must pass the safety rules, and every entry is inflated to its end
// and its CRC-32 compared. Limits come from opts (defaults 10000 entries,
// 2 GiB total, ratio 100).
//
// The verdict is always returned, with every problem found; the error is the
// verdict's envelope (ArtifactCorrupt, ArtifactUnsafe or ArtifactTooLarge for
// the first blocking problem), an I/O error of r, or ctx's error.
func Verify(ctx context.Context, r io.ReaderAt, size int64, opts ...VerifyOption) (*Verdict, error) {
	cfg := verifyConfig{maxEntries: DefaultMaxEntries, maxTotal: DefaultMaxTotalSize, maxRatio: DefaultMaxRatio, ratioFloor: DefaultRatioFloor}
	for _, o := range opts {
		o(&cfg)
	}
	v := &Verdict{Size: size, Entries: []Entry{}}
	if size < 0 {
		return v, errs.New(errs.BadInput, "verify zip: negative size %d", size)
	}

	// The whole-file hash runs beside the checks: it is an independent
	// sequential read, and on two cores it costs almost no wall time.
	hashCtx, stopHash := context.WithCancel(ctx)
	defer stopHash()
	type hashResult struct {
		sum string
		err error
	}
	hashDone := make(chan hashResult, 1)
	go func() {
		sum, err := hashFile(hashCtx, r, size)
		hashDone <- hashResult{sum, err}
	}()

	err := check(ctx, r, size, cfg, v)
	if err != nil {
		stopHash() // the verdict is lost anyway: do not read the rest of the file
	}
	h := <-hashDone
	if err != nil {
		return v, err
	}
	if h.err != nil {
		return v, fmt.Errorf("hash zip: %w", h.err)
	}
	v.SHA256 = h.sum
	_, blocked := v.Blocking()
	v.OK = !blocked
	return v, v.Err()
}

func hashFile(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	h := sha256.New()
	buf := make([]byte, min(size, 1<<20))
	for off := int64(0); off < size; {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		n := int64(len(buf))
		if size-off < n {
			n = size - off
		}
		m, err := r.ReadAt(buf[:n], off)
		if int64(m) < n {
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		h.Write(buf[:n])
		off += n
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func check(ctx context.Context, r io.ReaderAt, size int64, cfg verifyConfig, v *Verdict) error {
	er, ok, err := findEnd(r, size, v)
	if err != nil || !ok {
		return err
	}
	if er.count > cfg.maxEntries {
		v.add(ReasonTooManyEntries, "", "%d entries, over the limit of %d", er.count, cfg.maxEntries)
		return nil
	}
	entries, ok, err := readCentral(r, size, er, v)
	if err != nil || !ok {
		return err
	}
	if len(entries) == 0 {
		v.add(ReasonEmpty, "", "the archive has no entries")
		return nil
	}
	names := newNameSet()
	for i := range entries {
		ce := &entries[i]
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := readLocal(r, size, ce, v); err != nil {
			return fmt.Errorf("read local header of %q: %w", ce.name, err)
		}
		e := Entry{Name: ce.name, Size: ce.usize, CompressedSize: ce.csize, CRC32: ce.crc, Method: ce.method}
		e.Mode, e.Dir = entryMode(ce, v)
		checkEntryFlags(ce, e.Dir, cfg, v)
		names.add(ce, e.Dir, v)
		if !e.Dir {
			v.Files++
		}
		v.TotalUncompressed += ce.usize
		v.TotalCompressed += ce.csize
		v.Entries = append(v.Entries, e)
	}
	if v.Files == 0 {
		v.add(ReasonEmpty, "", "the archive holds %d entries but no file", len(entries))
	}
	if v.TotalUncompressed > cfg.maxTotal {
		v.add(ReasonTooLarge, "", "%d bytes uncompressed, over the limit of %d", v.TotalUncompressed, cfg.maxTotal)
	}
	if v.TotalUncompressed >= cfg.ratioFloor && exceedsRatio(v.TotalUncompressed, v.TotalCompressed, cfg.maxRatio) {
		v.add(ReasonTotalRatio, "", "the archive inflates from %d to %d bytes, over %d×", v.TotalCompressed, v.TotalUncompressed, cfg.maxRatio)
	}
	checkLayout(entries, er, size, v)

	// Inflating is the expensive and the dangerous step: skip it when the
	// declared sizes already condemn the archive or entries share bytes.
	for _, p := range v.Problems {
		switch p.Reason {
		case ReasonTooLarge, ReasonRatio, ReasonTotalRatio, ReasonOverlap:
			return nil
		}
	}
	return checkAllData(ctx, sizedReader{r, size}, entries, v)
}

// checkAllData inflates the entries on up to GOMAXPROCS workers (entries
// are independent byte ranges of a ReaderAt) and adds their problems to v
// in directory order, so the verdict does not depend on scheduling.
func checkAllData(ctx context.Context, r sizedReader, entries []centralEntry, v *Verdict) error {
	workers := min(runtime.GOMAXPROCS(0), 4, len(entries))
	if r.size < 4<<20 {
		workers = 1 // not worth the goroutines
	}
	found := make([][]Problem, len(entries))
	next := make(chan int)
	errc := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var inf inflater
			for i := range next {
				ce := &entries[i]
				scratch := &Verdict{}
				if err := inf.checkData(r, ce, scratch); err != nil {
					errc <- fmt.Errorf("read data of %q: %w", ce.name, err)
					return
				}
				found[i] = scratch.Problems
			}
		}()
	}
	var err error
feed:
	for i := range entries {
		ce := &entries[i]
		if !ce.localOK || ce.flags&flagEncrypted != 0 || (ce.method != methodStore && ce.method != methodDeflate) {
			continue
		}
		select {
		case next <- i:
		case err = <-errc:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errc:
		default:
			err = ctx.Err()
		}
	}
	if err != nil {
		return err
	}
	for _, ps := range found {
		v.Problems = append(v.Problems, ps...)
	}
	return nil
}

func exceedsRatio(u, c, maxRatio uint64) bool {
	if c == 0 {
		return u > 0
	}
	return u/c > maxRatio || (u/c == maxRatio && u%c != 0)
}

// checkEntryFlags applies the per-entry rules that need no data.
func checkEntryFlags(ce *centralEntry, dir bool, cfg verifyConfig, v *Verdict) {
	if ce.flags&flagEncrypted != 0 {
		v.add(ReasonEncrypted, ce.name, "the entry is encrypted and cannot be verified")
	}
	if ce.method != methodStore && ce.method != methodDeflate {
		v.add(ReasonUnsupported, ce.name, "compression method %d cannot be verified (only store and deflate)", ce.method)
	}
	if ce.method == methodStore && ce.csize != ce.usize && ce.flags&flagEncrypted == 0 {
		v.add(ReasonSizeMismatch, ce.name, "a stored entry declares %d bytes compressed but %d uncompressed", ce.csize, ce.usize)
	}
	if dir && (ce.usize != 0 || ce.csize > 2) {
		v.add(ReasonBadDirEntry, ce.name, "a directory entry carries %d bytes", ce.usize)
	}
	if ce.usize > cfg.maxTotal {
		v.add(ReasonTooLarge, ce.name, "%d bytes uncompressed, over the limit of %d", ce.usize, cfg.maxTotal)
	}
	if ce.usize >= cfg.ratioFloor && exceedsRatio(ce.usize, ce.csize, cfg.maxRatio) {
		v.add(ReasonRatio, ce.name, "inflates from %d to %d bytes, over %d×", ce.csize, ce.usize, cfg.maxRatio)
	}
}

// span is a byte range of the file that a record accounts for.
type span struct {
	start, end int64
	what       string
}

// checkLayout requires the records to tile the file: entries from offset 0,
// then the central directory, the zip64 records and the end record, with no
// byte unaccounted for and no byte claimed twice.
func checkLayout(entries []centralEntry, er endRecord, size int64, v *Verdict) {
	spans := make([]span, 0, len(entries)+4)
	for i := range entries {
		if entries[i].localOK {
			spans = append(spans, span{int64(entries[i].localOff), entries[i].recEnd, entries[i].name})
		}
	}
	spans = append(spans, span{int64(er.cdOff), int64(er.cdOff + er.cdSize), "central directory"})
	if er.z64Off >= 0 {
		spans = append(spans, span{er.z64Off, er.z64End, "zip64 end record"}, span{er.locOff, er.locOff + lenLocator64, "zip64 locator"})
	}
	spans = append(spans, span{er.eocdOff, er.eocdEnd, "end record"})
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var at int64
	var prev string
	for _, s := range spans {
		switch {
		case s.start < at:
			v.add(ReasonOverlap, s.what, "its bytes %d..%d overlap %q (which ends at %d)", s.start, s.end, prev, at)
		case s.start > at && at == 0:
			v.add(ReasonDataBefore, "", "%d bytes before the first record", s.start)
		case s.start > at:
			v.add(ReasonHiddenData, "", "%d unaccounted bytes after %q", s.start-at, prev)
		}
		if s.end > at {
			at, prev = s.end, s.what
		}
	}
	_ = size // bytes after the end record were reported by findEnd
}

type sizedReader struct {
	r    io.ReaderAt
	size int64
}

// inflater reuses one decompressor across entries.
type inflater struct {
	fr  io.ReadCloser
	br  *bufio.Reader
	buf []byte
}

// countingReader counts the bytes bufio pulled from the entry's data; what
// bufio still buffers was not consumed by flate. Together they show bytes
// hidden after the end of a deflate stream inside an entry, at no per-byte
// cost (flate reads through bufio's ReadByte directly).
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (inf *inflater) checkData(r sizedReader, ce *centralEntry, v *Verdict) error {
	cr := &countingReader{r: io.NewSectionReader(r.r, ce.dataStart, int64(ce.csize))}
	if inf.buf == nil {
		// Sized for the archive so that small archives (and fuzzing) stay cheap.
		n := int(min(r.size, 256<<10))
		inf.buf = make([]byte, max(n, 512))
		inf.br = bufio.NewReaderSize(cr, max(n, 16))
	} else {
		inf.br.Reset(cr)
	}
	var src io.Reader = inf.br
	if ce.method == methodDeflate {
		if inf.fr == nil {
			inf.fr = flate.NewReader(inf.br)
		} else if err := inf.fr.(flate.Resetter).Reset(inf.br, nil); err != nil {
			return err
		}
		src = inf.fr
	}
	h := crc32.NewIEEE()
	// Read one byte past the declared size: a stream longer than declared is
	// corrupt, and it must not be inflated without bound.
	n, err := io.CopyBuffer(h, io.LimitReader(src, int64(ce.usize)+1), inf.buf)
	if err != nil {
		var ce2 flate.CorruptInputError
		if errors.As(err, &ce2) || errors.Is(err, io.ErrUnexpectedEOF) {
			v.add(ReasonBadCompressed, ce.name, "the compressed data is invalid after %d bytes", n)
			return nil
		}
		var ie flate.InternalError
		if errors.As(err, &ie) {
			v.add(ReasonBadCompressed, ce.name, "the compressed data is invalid: %v", err)
			return nil
		}
		return err
	}
	if uint64(n) != ce.usize {
		v.add(ReasonSizeMismatch, ce.name, "declares %d bytes but holds %s", ce.usize, sizeWord(n, ce.usize))
		return nil
	}
	if consumed := cr.n - int64(inf.br.Buffered()); ce.method == methodDeflate && consumed != int64(ce.csize) {
		v.add(ReasonHiddenData, ce.name, "%d bytes of the entry's data follow the end of its compressed stream", int64(ce.csize)-consumed)
		return nil
	}
	got := h.Sum32()
	switch {
	case got != ce.crc && ce.crc == 0 && ce.usize > 0:
		v.add(ReasonCRCMissing, ce.name, "the stored CRC is 0 but the data's is %08x", got)
	case got != ce.crc:
		v.add(ReasonCRCMismatch, ce.name, "stored CRC %08x, data %08x", ce.crc, got)
	case got == 0 && ce.usize > 0:
		v.warn(ReasonCRCZeroSuspect, ce.name, "a non-empty entry whose CRC is 0 (possible but suspect)")
	}
	return nil
}

func sizeWord(n int64, declared uint64) string {
	if uint64(n) > declared {
		return "more"
	}
	return fmt.Sprintf("%d", n)
}
