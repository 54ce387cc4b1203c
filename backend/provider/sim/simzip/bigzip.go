package simzip

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"sort"
	"sync"
)

// virtualZip is a stored (uncompressed) zip whose blob contents are a pure
// function of (seed, blob, block), so any byte range can be produced on demand:
// a 200 MiB archive is streamed and served with Range support without ever
// being held in memory. Only the CRCs are computed up front (one pass).
type virtualZip struct {
	seed int64
	segs []segment
	size int64
}

type segment struct {
	off  int64
	n    int64
	fix  []byte // fixed bytes (headers, small files, central directory)
	blob int    // blob index when fix == nil
}

const blobBlock = 64 << 10
const blobMax = 32 << 20

var vzips sync.Map // Spec -> *virtualZip

func openVirtualZip(spec Spec) *virtualZip {
	if v, ok := vzips.Load(spec); ok {
		return v.(*virtualZip)
	}
	v := buildVirtualZip(spec)
	actual, _ := vzips.LoadOrStore(spec, v)
	return actual.(*virtualZip)
}

func buildVirtualZip(spec Spec) *virtualZip {
	vz := &virtualZip{seed: spec.Seed}
	type entry struct {
		name      string
		crc       uint32
		n         int64
		headerOff int64
	}
	var entries []entry
	add := func(b []byte) {
		vz.segs = append(vz.segs, segment{off: vz.size, n: int64(len(b)), fix: b})
		vz.size += int64(len(b))
	}
	dosTime, dosDate := dosDateTime()
	local := func(name string, crc uint32, n int64) []byte {
		b := make([]byte, 30+len(name))
		binary.LittleEndian.PutUint32(b[0:], 0x04034b50)
		binary.LittleEndian.PutUint16(b[4:], 20)
		binary.LittleEndian.PutUint16(b[10:], dosTime)
		binary.LittleEndian.PutUint16(b[12:], dosDate)
		binary.LittleEndian.PutUint32(b[14:], crc)
		binary.LittleEndian.PutUint32(b[18:], uint32(n))
		binary.LittleEndian.PutUint32(b[22:], uint32(n))
		binary.LittleEndian.PutUint16(b[26:], uint16(len(name)))
		copy(b[30:], name)
		return b
	}
	for _, f := range projectFiles {
		e := entry{name: f.name, crc: crc32.ChecksumIEEE([]byte(f.body)), n: int64(len(f.body)), headerOff: vz.size}
		add(local(e.name, e.crc, e.n))
		if e.n > 0 {
			add([]byte(f.body))
		}
		entries = append(entries, e)
	}
	remaining := spec.Size - vz.size - 4096
	for i := 0; remaining > 0; i++ {
		n := min(remaining, blobMax)
		e := entry{name: fmt.Sprintf("data/blob-%03d.bin", i), crc: blobCRC(spec.Seed, i, n), n: n, headerOff: vz.size}
		add(local(e.name, e.crc, e.n))
		vz.segs = append(vz.segs, segment{off: vz.size, n: n, blob: i})
		vz.size += n
		entries = append(entries, e)
		remaining -= n + 30 + int64(len(e.name)) + 46 + int64(len(e.name))
	}
	cdOff := vz.size
	var cd []byte
	for _, e := range entries {
		b := make([]byte, 46+len(e.name))
		binary.LittleEndian.PutUint32(b[0:], 0x02014b50)
		binary.LittleEndian.PutUint16(b[4:], 20)
		binary.LittleEndian.PutUint16(b[6:], 20)
		binary.LittleEndian.PutUint16(b[12:], dosTime)
		binary.LittleEndian.PutUint16(b[14:], dosDate)
		binary.LittleEndian.PutUint32(b[16:], e.crc)
		binary.LittleEndian.PutUint32(b[20:], uint32(e.n))
		binary.LittleEndian.PutUint32(b[24:], uint32(e.n))
		binary.LittleEndian.PutUint16(b[28:], uint16(len(e.name)))
		binary.LittleEndian.PutUint32(b[42:], uint32(e.headerOff))
		copy(b[46:], e.name)
		cd = append(cd, b...)
	}
	end := make([]byte, 22)
	binary.LittleEndian.PutUint32(end[0:], 0x06054b50)
	binary.LittleEndian.PutUint16(end[8:], uint16(len(entries)))
	binary.LittleEndian.PutUint16(end[10:], uint16(len(entries)))
	binary.LittleEndian.PutUint32(end[12:], uint32(len(cd)))
	binary.LittleEndian.PutUint32(end[16:], uint32(cdOff))
	add(append(cd, end...))
	return vz
}

func dosDateTime() (uint16, uint16) {
	t := ModTime
	return uint16(t.Hour()<<11 | t.Minute()<<5 | t.Second()>>1),
		uint16((t.Year()-1980)<<9 | int(t.Month())<<5 | t.Day())
}

func blobBlockBytes(seed int64, blob, block int, buf []byte) {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[0:], uint64(seed))
	binary.LittleEndian.PutUint64(key[8:], uint64(blob))
	binary.LittleEndian.PutUint64(key[16:], uint64(block))
	copy(key[24:], "ferrysim")
	fillRandom(rand.New(rand.NewChaCha8(key)), buf)
}

func blobCRC(seed int64, blob int, n int64) uint32 {
	buf := make([]byte, blobBlock)
	var crc uint32
	for block := 0; int64(block)*blobBlock < n; block++ {
		k := min(int64(blobBlock), n-int64(block)*blobBlock)
		blobBlockBytes(seed, blob, block, buf)
		crc = crc32.Update(crc, crc32.IEEETable, buf[:k])
	}
	return crc
}

// reader returns a ReaderAt for one request: it keeps the last generated
// block, so sequential reads smaller than a block generate each block once.
func (vz *virtualZip) reader() *vzReader { return &vzReader{vz: vz, blob: -1} }

type vzReader struct {
	vz    *virtualZip
	blob  int
	block int
	buf   []byte
}

func (r *vzReader) blockBytes(blob, block int) []byte {
	if r.buf == nil {
		r.buf = make([]byte, blobBlock)
	}
	if r.blob != blob || r.block != block {
		blobBlockBytes(r.vz.seed, blob, block, r.buf)
		r.blob, r.block = blob, block
	}
	return r.buf
}

// ReadAt implements io.ReaderAt over the virtual archive.
func (r *vzReader) ReadAt(p []byte, off int64) (int, error) {
	vz := r.vz
	if off >= vz.size {
		return 0, io.EOF
	}
	n := 0
	i := sort.Search(len(vz.segs), func(i int) bool { return vz.segs[i].off+vz.segs[i].n > off })
	for ; i < len(vz.segs) && n < len(p); i++ {
		s := vz.segs[i]
		rel := off + int64(n) - s.off
		if s.fix != nil {
			n += copy(p[n:], s.fix[rel:])
			continue
		}
		for rel < s.n && n < len(p) {
			b := int(rel / blobBlock)
			block := r.blockBytes(s.blob, b)
			k := min(int64(blobBlock), s.n-int64(b)*blobBlock)
			c := copy(p[n:], block[rel-int64(b)*blobBlock:k])
			n += c
			rel += int64(c)
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
