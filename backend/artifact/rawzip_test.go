package artifact

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
)

// rawZip writes zips byte by byte so that tests can build what no honest
// writer would: lying headers, gaps, shared bytes, bogus descriptors.
type rawZip struct {
	prefix  []byte
	entries []rawEntry
	suffix  []byte
	comment string
	// cdGap is written between the last entry and the central directory.
	cdGap []byte
}

type rawEntry struct {
	name    string
	data    []byte
	deflate bool
	flags   uint16
	extAttr uint32
	creator uint8
	extra   []byte

	gapBefore []byte // unaccounted bytes before the local header

	// Lies, applied after the honest values are computed.
	localName  string // a different name in the local header
	crc        *uint32
	usize      *uint64
	csize      *uint64
	descriptor bool // write a data descriptor (flag bit 3)
	descCRC    *uint32
	trailing   []byte // bytes after the compressed stream, inside csize
	pointTo    int    // 1-based: central record points at entry pointTo-1's local header (no own local)
}

func u32(v uint32) *uint32 { return &v }
func u64(v uint64) *uint64 { return &v }

func (z rawZip) bytes() []byte {
	var out bytes.Buffer
	out.Write(z.prefix)
	type placed struct {
		off          uint64
		crc          uint32
		csize, usize uint64
		method       uint16
		flags        uint16
	}
	var pl []placed
	for _, e := range z.entries {
		if e.pointTo > 0 {
			pl = append(pl, pl[e.pointTo-1])
			continue
		}
		out.Write(e.gapBefore)
		comp := e.data
		method := uint16(0)
		if e.deflate {
			var b bytes.Buffer
			w, _ := flate.NewWriter(&b, flate.BestCompression)
			w.Write(e.data)
			w.Close()
			comp = b.Bytes()
			method = 8
		}
		comp = append(append([]byte(nil), comp...), e.trailing...)
		p := placed{off: uint64(out.Len()), crc: crc32.ChecksumIEEE(e.data), csize: uint64(len(comp)), usize: uint64(len(e.data)), method: method, flags: e.flags}
		if e.descriptor {
			p.flags |= flagDescriptor
		}
		if e.crc != nil {
			p.crc = *e.crc
		}
		if e.usize != nil {
			p.usize = *e.usize
		}
		if e.csize != nil {
			p.csize = *e.csize
		}
		lname := e.name
		if e.localName != "" {
			lname = e.localName
		}
		h := make([]byte, lenLocal)
		binary.LittleEndian.PutUint32(h, sigLocal)
		binary.LittleEndian.PutUint16(h[4:], 20)
		binary.LittleEndian.PutUint16(h[6:], p.flags)
		binary.LittleEndian.PutUint16(h[8:], method)
		if !e.descriptor {
			binary.LittleEndian.PutUint32(h[14:], p.crc)
			binary.LittleEndian.PutUint32(h[18:], uint32(p.csize))
			binary.LittleEndian.PutUint32(h[22:], uint32(p.usize))
		}
		binary.LittleEndian.PutUint16(h[26:], uint16(len(lname)))
		out.Write(h)
		out.WriteString(lname)
		out.Write(comp)
		if e.descriptor {
			d := make([]byte, 16)
			binary.LittleEndian.PutUint32(d, sigDescriptor)
			crc := p.crc
			if e.descCRC != nil {
				crc = *e.descCRC
			}
			binary.LittleEndian.PutUint32(d[4:], crc)
			binary.LittleEndian.PutUint32(d[8:], uint32(p.csize))
			binary.LittleEndian.PutUint32(d[12:], uint32(p.usize))
			out.Write(d)
		}
		pl = append(pl, p)
	}
	out.Write(z.cdGap)
	cdOff := out.Len()
	for i, e := range z.entries {
		p := pl[i]
		h := make([]byte, lenCentral)
		binary.LittleEndian.PutUint32(h, sigCentral)
		creator := e.creator
		if creator == 0 && e.extAttr>>16 != 0 {
			creator = 3
		}
		binary.LittleEndian.PutUint16(h[4:], uint16(creator)<<8|20)
		binary.LittleEndian.PutUint16(h[6:], 20)
		binary.LittleEndian.PutUint16(h[8:], p.flags)
		binary.LittleEndian.PutUint16(h[10:], p.method)
		binary.LittleEndian.PutUint32(h[16:], p.crc)
		binary.LittleEndian.PutUint32(h[20:], uint32(p.csize))
		binary.LittleEndian.PutUint32(h[24:], uint32(p.usize))
		binary.LittleEndian.PutUint16(h[28:], uint16(len(e.name)))
		binary.LittleEndian.PutUint16(h[30:], uint16(len(e.extra)))
		binary.LittleEndian.PutUint32(h[38:], e.extAttr)
		binary.LittleEndian.PutUint32(h[42:], uint32(p.off))
		out.Write(h)
		out.WriteString(e.name)
		out.Write(e.extra)
	}
	cdSize := out.Len() - cdOff
	end := make([]byte, lenEnd)
	binary.LittleEndian.PutUint32(end, sigEnd)
	binary.LittleEndian.PutUint16(end[8:], uint16(len(z.entries)))
	binary.LittleEndian.PutUint16(end[10:], uint16(len(z.entries)))
	binary.LittleEndian.PutUint32(end[12:], uint32(cdSize))
	binary.LittleEndian.PutUint32(end[16:], uint32(cdOff))
	binary.LittleEndian.PutUint16(end[20:], uint16(len(z.comment)))
	out.Write(end)
	out.WriteString(z.comment)
	out.Write(z.suffix)
	return out.Bytes()
}

// overlapBomb builds the overlapping kind of zip bomb: entry 1's stored data
// contains entry 2's local header and data, so both central records claim
// the same bytes and every byte is counted twice.
func overlapBomb() []byte {
	inner := rawZip{entries: []rawEntry{{name: "b.txt", data: []byte("payload of b")}}}.bytes()
	innerLocal := inner[:lenLocal+len("b.txt")+len("payload of b")]
	outer := rawEntry{name: "a.txt", data: innerLocal}
	z := rawZip{entries: []rawEntry{outer}}
	b := z.bytes()
	// Append a second central record for b.txt pointing inside a.txt's data,
	// and fix the end record.
	aLocalLen := lenLocal + len("a.txt")
	bOff := uint32(aLocalLen)
	cdOff := binary.LittleEndian.Uint32(b[len(b)-lenEnd+16:])
	cd := append([]byte(nil), b[cdOff:len(b)-lenEnd]...)
	bRec := make([]byte, lenCentral)
	binary.LittleEndian.PutUint32(bRec, sigCentral)
	binary.LittleEndian.PutUint16(bRec[4:], 20)
	binary.LittleEndian.PutUint16(bRec[6:], 20)
	binary.LittleEndian.PutUint32(bRec[16:], crc32.ChecksumIEEE([]byte("payload of b")))
	binary.LittleEndian.PutUint32(bRec[20:], uint32(len("payload of b")))
	binary.LittleEndian.PutUint32(bRec[24:], uint32(len("payload of b")))
	binary.LittleEndian.PutUint16(bRec[28:], uint16(len("b.txt")))
	binary.LittleEndian.PutUint32(bRec[42:], bOff)
	cd = append(cd, append(bRec, "b.txt"...)...)
	out := append([]byte(nil), b[:cdOff]...)
	out = append(out, cd...)
	end := make([]byte, lenEnd)
	binary.LittleEndian.PutUint32(end, sigEnd)
	binary.LittleEndian.PutUint16(end[8:], 2)
	binary.LittleEndian.PutUint16(end[10:], 2)
	binary.LittleEndian.PutUint32(end[12:], uint32(len(cd)))
	binary.LittleEndian.PutUint32(end[16:], cdOff)
	return append(out, end...)
}
