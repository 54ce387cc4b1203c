package artifact

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// The zip structures the verifier reads itself. archive/zip hides the facts
// a safety check needs (where each entry's bytes lie, whether the local header
// agrees with the central one, what sits between records), so the directory
// is parsed here, strictly, from APPNOTE 6.3.

const (
	sigLocal       = 0x04034b50
	sigCentral     = 0x02014b50
	sigEnd         = 0x06054b50
	sigEnd64       = 0x06064b50
	sigLocator64   = 0x07064b50
	sigDescriptor  = 0x08074b50
	lenLocal       = 30
	lenCentral     = 46
	lenEnd         = 22
	lenEnd64       = 56
	lenLocator64   = 20
	maxCommentLen  = 0xffff
	extraZip64     = 0x0001
	extraUnicodePa = 0x7075 // Info-ZIP Unicode Path: some extractors prefer it to the name

	methodStore   = 0
	methodDeflate = 8

	flagEncrypted  = 1 << 0
	flagDescriptor = 1 << 3
)

// endRecord is what the end-of-central-directory records say, with the file
// ranges they occupy.
type endRecord struct {
	eocdOff, eocdEnd int64 // the classic end record, including its comment
	z64Off, z64End   int64 // the zip64 end record, or -1
	locOff           int64 // the zip64 locator, or -1
	count            uint64
	cdSize, cdOff    uint64
}

// centralEntry is one central-directory record plus what the local header
// and data descriptor add.
type centralEntry struct {
	name         string
	flags        uint16
	method       uint16
	creator      uint8
	extAttr      uint32
	crc          uint32
	csize, usize uint64
	localOff     uint64
	unicodeName  []byte // from extra 0x7075, nil when absent
	zip64Sizes   bool

	// Filled by readLocal.
	dataStart, dataEnd, recEnd int64
	localOK                    bool
}

var errShort = errors.New("short read")

func readFull(r io.ReaderAt, off int64, n int, size int64) ([]byte, error) {
	if off < 0 || n < 0 || off > size || int64(n) > size-off {
		return nil, errShort
	}
	b := make([]byte, n)
	if _, err := r.ReadAt(b, off); err != nil && !(errors.Is(err, io.EOF) && off+int64(n) == size) {
		return nil, err
	}
	return b, nil
}

// findEnd locates the end record the way archive/zip does (the last
// signature whose comment fits in the file) and reads the zip64 records it
// points to. It reports structural problems into v and returns false when no
// directory can be trusted.
func findEnd(r io.ReaderAt, size int64, v *Verdict) (endRecord, bool, error) {
	er := endRecord{z64Off: -1, z64End: -1, locOff: -1}
	if size < lenEnd {
		v.add(ReasonNotZip, "", "the file is %d bytes, shorter than an empty zip (22)", size)
		return er, false, nil
	}
	tail := int64(lenEnd + maxCommentLen)
	if tail > size {
		tail = size
	}
	buf, err := readFull(r, size-tail, int(tail), size)
	if err != nil {
		return er, false, err
	}
	at := -1
	for i := len(buf) - lenEnd; i >= 0; i-- {
		if binary.LittleEndian.Uint32(buf[i:]) != sigEnd {
			continue
		}
		if n := int(binary.LittleEndian.Uint16(buf[i+20:])); i+lenEnd+n <= len(buf) {
			at = i
			break
		}
	}
	if at < 0 {
		v.add(ReasonNotZip, "", "no end-of-central-directory record: not a zip, or truncated")
		return er, false, nil
	}
	e := buf[at:]
	er.eocdOff = size - tail + int64(at)
	er.eocdEnd = er.eocdOff + lenEnd + int64(binary.LittleEndian.Uint16(e[20:]))
	disk, cdDisk := binary.LittleEndian.Uint16(e[4:]), binary.LittleEndian.Uint16(e[6:])
	onDisk, total := binary.LittleEndian.Uint16(e[8:]), binary.LittleEndian.Uint16(e[10:])
	er.count = uint64(total)
	er.cdSize = uint64(binary.LittleEndian.Uint32(e[12:]))
	er.cdOff = uint64(binary.LittleEndian.Uint32(e[16:]))
	if er.eocdEnd < size {
		v.add(ReasonDataAfter, "", "%d bytes after the end of the archive", size-er.eocdEnd)
	}
	saturated := total == 0xffff || er.cdSize == 0xffffffff || er.cdOff == 0xffffffff
	if ok, err := readZip64(r, size, &er, saturated, v); err != nil || !ok {
		return er, false, err
	}
	if er.z64Off < 0 {
		if (disk != 0 && disk != 0xffff) || (cdDisk != 0 && cdDisk != 0xffff) {
			v.add(ReasonMultiDisk, "", "the archive spans disks (disk %d, directory on disk %d)", disk, cdDisk)
			return er, false, nil
		}
		if onDisk != total {
			v.add(ReasonBadDirectory, "", "end record counts %d entries on this disk but %d in total", onDisk, total)
			return er, false, nil
		}
	}
	return er, true, nil
}

// readZip64 reads the zip64 locator just before the end record, if any. A
// saturated classic field requires it; when present its values replace the
// saturated ones and must agree with the others.
func readZip64(r io.ReaderAt, size int64, er *endRecord, saturated bool, v *Verdict) (bool, error) {
	locOff := er.eocdOff - lenLocator64
	if locOff < 0 {
		if saturated {
			v.add(ReasonBadDirectory, "", "the end record needs zip64 values but no zip64 locator precedes it")
			return false, nil
		}
		return true, nil
	}
	loc, err := readFull(r, locOff, lenLocator64, size)
	if err != nil {
		return false, err
	}
	if binary.LittleEndian.Uint32(loc) != sigLocator64 {
		if saturated {
			v.add(ReasonBadDirectory, "", "the end record needs zip64 values but no zip64 locator precedes it")
			return false, nil
		}
		return true, nil
	}
	if !saturated && er.cdOff+er.cdSize == uint64(er.eocdOff) {
		// The "locator" is the tail of a central directory that ends right
		// before the end record; a real locator cannot sit there.
		return true, nil
	}
	if d, n := binary.LittleEndian.Uint32(loc[4:]), binary.LittleEndian.Uint32(loc[16:]); d != 0 || n > 1 {
		v.add(ReasonMultiDisk, "", "the zip64 locator names disk %d of %d", d, n)
		return false, nil
	}
	off := binary.LittleEndian.Uint64(loc[8:])
	if off > uint64(locOff) || uint64(locOff)-off < lenEnd64 {
		v.add(ReasonBadDirectory, "", "the zip64 locator points to offset %d, outside the archive", off)
		return false, nil
	}
	rec, err := readFull(r, int64(off), lenEnd64, size)
	if err != nil {
		return false, err
	}
	recLen := binary.LittleEndian.Uint64(rec[4:])
	if binary.LittleEndian.Uint32(rec) != sigEnd64 || recLen < lenEnd64-12 || recLen > uint64(locOff)-off-12 {
		v.add(ReasonBadDirectory, "", "no valid zip64 end record at offset %d", off)
		return false, nil
	}
	if d, cd := binary.LittleEndian.Uint32(rec[16:]), binary.LittleEndian.Uint32(rec[20:]); d != 0 || cd != 0 {
		v.add(ReasonMultiDisk, "", "the zip64 end record names disk %d, directory on disk %d", d, cd)
		return false, nil
	}
	onDisk, total := binary.LittleEndian.Uint64(rec[24:]), binary.LittleEndian.Uint64(rec[32:])
	cdSize, cdOff := binary.LittleEndian.Uint64(rec[40:]), binary.LittleEndian.Uint64(rec[48:])
	if onDisk != total {
		v.add(ReasonBadDirectory, "", "zip64 end record counts %d entries on this disk but %d in total", onDisk, total)
		return false, nil
	}
	agree := (er.count == 0xffff || er.count == total) &&
		(er.cdSize == 0xffffffff || er.cdSize == cdSize) &&
		(er.cdOff == 0xffffffff || er.cdOff == cdOff)
	if !agree {
		v.add(ReasonBadDirectory, "", "the zip64 end record disagrees with the classic one")
		return false, nil
	}
	er.count, er.cdSize, er.cdOff = total, cdSize, cdOff
	er.z64Off, er.z64End, er.locOff = int64(off), int64(off)+12+int64(recLen), locOff
	return true, nil
}

// readCentral reads exactly er.count records from exactly er.cdSize bytes.
func readCentral(r io.ReaderAt, size int64, er endRecord, v *Verdict) ([]centralEntry, bool, error) {
	dirEnd := er.eocdOff
	if er.z64Off >= 0 {
		dirEnd = er.z64Off
	}
	if er.cdOff > uint64(size) || er.cdSize > uint64(size)-er.cdOff {
		v.add(ReasonTruncated, "", "the central directory (%d bytes at %d) runs past the end of the file", er.cdSize, er.cdOff)
		return nil, false, nil
	}
	switch end := er.cdOff + er.cdSize; {
	case end > uint64(dirEnd):
		v.add(ReasonBadDirectory, "", "the central directory overlaps the end record")
		return nil, false, nil
	case end < uint64(dirEnd):
		// archive/zip would shift every offset to make this fit (that is how
		// self-extractors work); Ferry does not accept shifted archives.
		v.add(ReasonHiddenData, "", "%d unaccounted bytes between the central directory and the end record", uint64(dirEnd)-end)
		return nil, false, nil
	}
	if er.count > er.cdSize/lenCentral {
		v.add(ReasonBadDirectory, "", "the end record counts %d entries but the directory holds at most %d", er.count, er.cdSize/lenCentral)
		return nil, false, nil
	}
	br := bufio.NewReaderSize(io.NewSectionReader(r, int64(er.cdOff), int64(er.cdSize)), 64<<10)
	out := make([]centralEntry, 0, er.count)
	var consumed uint64
	hdr := make([]byte, lenCentral)
	for i := uint64(0); i < er.count; i++ {
		if _, err := io.ReadFull(br, hdr); err != nil {
			v.add(ReasonBadDirectory, "", "central record %d is cut short", i)
			return out, false, nil
		}
		if binary.LittleEndian.Uint32(hdr) != sigCentral {
			v.add(ReasonBadDirectory, "", "central record %d has no signature", i)
			return out, false, nil
		}
		nameLen := int(binary.LittleEndian.Uint16(hdr[28:]))
		extraLen := int(binary.LittleEndian.Uint16(hdr[30:]))
		commentLen := int(binary.LittleEndian.Uint16(hdr[32:]))
		rest := make([]byte, nameLen+extraLen+commentLen)
		if _, err := io.ReadFull(br, rest); err != nil {
			v.add(ReasonBadDirectory, "", "central record %d is cut short", i)
			return out, false, nil
		}
		consumed += uint64(lenCentral + len(rest))
		ce := centralEntry{
			creator:  hdr[5],
			flags:    binary.LittleEndian.Uint16(hdr[8:]),
			method:   binary.LittleEndian.Uint16(hdr[10:]),
			crc:      binary.LittleEndian.Uint32(hdr[16:]),
			csize:    uint64(binary.LittleEndian.Uint32(hdr[20:])),
			usize:    uint64(binary.LittleEndian.Uint32(hdr[24:])),
			extAttr:  binary.LittleEndian.Uint32(hdr[38:]),
			localOff: uint64(binary.LittleEndian.Uint32(hdr[42:])),
			name:     string(rest[:nameLen]),
		}
		if d := binary.LittleEndian.Uint16(hdr[34:]); d != 0 && d != 0xffff {
			v.add(ReasonMultiDisk, ce.name, "the entry starts on disk %d", d)
			return out, false, nil
		}
		if !parseExtra(&ce, rest[nameLen:nameLen+extraLen]) {
			v.add(ReasonBadDirectory, ce.name, "the zip64 extra field is missing or malformed")
			return out, false, nil
		}
		out = append(out, ce)
	}
	if consumed != er.cdSize {
		v.add(ReasonHiddenData, "", "the central directory is %d bytes but its %d records fill %d", er.cdSize, er.count, consumed)
		return out, false, nil
	}
	return out, true, nil
}

// parseExtra applies the zip64 extra field (only the saturated fields are
// present, in the order usize, csize, offset) and keeps the Unicode path.
func parseExtra(ce *centralEntry, extra []byte) bool {
	needU, needC, needO := ce.usize == 0xffffffff, ce.csize == 0xffffffff, ce.localOff == 0xffffffff
	for len(extra) >= 4 {
		id, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if 4+n > len(extra) {
			return !(needU || needC || needO)
		}
		body := extra[4 : 4+n]
		extra = extra[4+n:]
		switch id {
		case extraZip64:
			for _, f := range []struct {
				need bool
				dst  *uint64
			}{{needU, &ce.usize}, {needC, &ce.csize}, {needO, &ce.localOff}} {
				if !f.need {
					continue
				}
				if len(body) < 8 {
					return false
				}
				*f.dst = binary.LittleEndian.Uint64(body)
				body = body[8:]
			}
			ce.zip64Sizes = needU || needC
			needU, needC, needO = false, false, false
		case extraUnicodePa:
			if len(body) >= 5 {
				ce.unicodeName = append([]byte(nil), body[5:]...)
			}
		}
	}
	return !(needU || needC || needO)
}

// readLocal reads the entry's local header and data descriptor and fills in
// the byte ranges. It reports problems into v.
func readLocal(r io.ReaderAt, size int64, ce *centralEntry, v *Verdict) error {
	if ce.localOff > uint64(size) || uint64(size)-ce.localOff < lenLocal {
		v.add(ReasonTruncated, ce.name, "the local header at %d lies past the end of the file", ce.localOff)
		return nil
	}
	off := int64(ce.localOff)
	h, err := readFull(r, off, lenLocal, size)
	if err != nil {
		return err
	}
	if binary.LittleEndian.Uint32(h) != sigLocal {
		v.add(ReasonBadLocalHeader, ce.name, "no local header at offset %d", off)
		return nil
	}
	flags, method := binary.LittleEndian.Uint16(h[6:]), binary.LittleEndian.Uint16(h[8:])
	nameLen, extraLen := int64(binary.LittleEndian.Uint16(h[26:])), int64(binary.LittleEndian.Uint16(h[28:]))
	name, err := readFull(r, off+lenLocal, int(nameLen), size)
	if errors.Is(err, errShort) {
		v.add(ReasonTruncated, ce.name, "the local header is cut short")
		return nil
	} else if err != nil {
		return err
	}
	switch {
	case !bytes.Equal(name, []byte(ce.name)):
		v.add(ReasonHeaderMismatch, ce.name, "the local header names %q", name)
		return nil
	case method != ce.method:
		v.add(ReasonHeaderMismatch, ce.name, "the local header says method %d, the directory %d", method, ce.method)
		return nil
	case flags&flagEncrypted != ce.flags&flagEncrypted:
		v.add(ReasonHeaderMismatch, ce.name, "the local header and the directory disagree about encryption")
		return nil
	}
	ce.dataStart = off + lenLocal + nameLen + extraLen
	if ce.dataStart > size || ce.csize > uint64(size-ce.dataStart) {
		v.add(ReasonTruncated, ce.name, "the entry's %d bytes of data run past the end of the file", ce.csize)
		return nil
	}
	ce.dataEnd = ce.dataStart + int64(ce.csize)
	ce.recEnd = ce.dataEnd
	if ce.flags&flagDescriptor != 0 {
		ok, err := readDescriptor(r, size, ce, v)
		if err != nil || !ok {
			return err
		}
	}
	ce.localOK = true
	return nil
}

// readDescriptor reads the data descriptor after the entry's data; its
// signature is optional and its sizes are 8 bytes for zip64 entries.
func readDescriptor(r io.ReaderAt, size int64, ce *centralEntry, v *Verdict) (bool, error) {
	width := int64(4)
	if ce.zip64Sizes {
		width = 8
	}
	n := 4 + 2*width
	at := ce.dataEnd
	if sig, err := readFull(r, at, 4, size); err == nil && binary.LittleEndian.Uint32(sig) == sigDescriptor {
		at += 4
	}
	d, err := readFull(r, at, int(n), size)
	if errors.Is(err, errShort) {
		v.add(ReasonTruncated, ce.name, "the data descriptor is cut short")
		return false, nil
	} else if err != nil {
		return false, err
	}
	crc := binary.LittleEndian.Uint32(d)
	var cs, us uint64
	if width == 8 {
		cs, us = binary.LittleEndian.Uint64(d[4:]), binary.LittleEndian.Uint64(d[12:])
	} else {
		cs, us = uint64(binary.LittleEndian.Uint32(d[4:])), uint64(binary.LittleEndian.Uint32(d[8:]))
	}
	if crc != ce.crc || cs != ce.csize || us != ce.usize {
		v.add(ReasonDescriptorWrong, ce.name, "the data descriptor (crc %08x, %d/%d bytes) disagrees with the directory (crc %08x, %d/%d bytes)",
			crc, cs, us, ce.crc, ce.csize, ce.usize)
		return false, nil
	}
	ce.recEnd = at + n
	return true, nil
}
