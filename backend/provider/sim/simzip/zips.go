// Package simzip makes the zips the simulator's sandbox writes: a small
// project, its damaged and unsafe variants (a bad CRC, cut short, a path
// that climbs out, a symlink, a bomb of overlapping entries) and large good
// archives produced on demand, never held in memory. A Spec fully
// determines an archive's bytes, so a test can ask for them again.
package simzip

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math/rand/v2"
	"sync"
	"time"
)

// Kinds of zip the sandbox writes.
const (
	Good      = "good"
	BadCRC    = "bad_crc"
	Truncated = "truncated"
	Slip      = "slip"
	Bomb      = "bomb"
	Symlink   = "symlink"
)

// Spec fully determines a zip's bytes: the same spec always yields the
// same archive, so its length can be measured once and the bytes streamed
// later without holding them.
type Spec struct {
	Name string
	Kind string
	Size int64 // target size of a good zip; 0 = small project
	Seed int64
}

// streamThreshold: good zips above it are streamed, never held in memory.
const streamThreshold = 8 << 20

// ModTime is the modification time of every entry (and of a download).
var ModTime = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

var projectFiles = []struct{ name, body string }{
	{"README.md", "# Project\n\nBuilt in the simulated ChatGPT sandbox.\n"},
	{"main.py", "from src.app import run\n\nif __name__ == \"__main__\":\n    run()\n"},
	{"src/app.py", "def run():\n    print(\"hello from the sandbox\")\n"},
	{"src/__init__.py", ""},
}

type zipCache struct {
	mu    sync.Mutex
	small map[Spec][]byte
}

var zips = zipCache{small: map[Spec][]byte{}}

// Open returns the bytes of the zip described by spec as a seekable reader
// (for Range requests) and its length. Large good zips are virtual: produced
// on demand, never held in memory.
func Open(spec Spec) (io.ReadSeeker, int64, error) {
	if spec.Size > streamThreshold && (spec.Kind == Good || spec.Kind == Truncated) {
		good := spec
		good.Kind = Good
		vz := openVirtualZip(good)
		n := vz.size
		if spec.Kind == Truncated {
			n = n * 6 / 10
		}
		return io.NewSectionReader(vz.reader(), 0, n), n, nil
	}
	b, _, err := smallZip(spec)
	if err != nil {
		return nil, 0, err
	}
	return bytes.NewReader(b), int64(len(b)), nil
}

func smallZip(spec Spec) ([]byte, bool, error) {
	zips.mu.Lock()
	b, ok := zips.small[spec]
	zips.mu.Unlock()
	if ok {
		return b, true, nil
	}
	b, err := buildSmallZip(spec)
	if err != nil {
		return nil, true, err
	}
	zips.mu.Lock()
	zips.small[spec] = b
	zips.mu.Unlock()
	return b, true, nil
}

func buildSmallZip(spec Spec) ([]byte, error) {
	var buf bytes.Buffer
	switch spec.Kind {
	case Good:
		if err := writeGoodZip(&buf, spec); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	case Truncated:
		good := spec
		good.Kind = Good
		if err := writeGoodZip(&buf, good); err != nil {
			return nil, err
		}
		b := buf.Bytes()
		return b[:len(b)*6/10], nil
	}
	zw := zip.NewWriter(&buf)
	if err := addProject(zw); err != nil {
		return nil, err
	}
	switch spec.Kind {
	case BadCRC:
		body := []byte("this entry's bytes do not match its stored CRC\n")
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "data/corrupt.txt", Method: zip.Store, Modified: ModTime,
			CRC32: crc32.ChecksumIEEE(body) ^ 0xdeadbeef, CompressedSize64: uint64(len(body)), UncompressedSize64: uint64(len(body))})
		if err != nil {
			return nil, err
		}
		_, _ = w.Write(body)
	case Slip:
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "../../evil.sh", Method: zip.Deflate, Modified: ModTime})
		if err != nil {
			return nil, err
		}
		_, _ = io.WriteString(w, "#!/bin/sh\necho pwned\n")
	case Symlink:
		h := &zip.FileHeader{Name: "link-to-passwd", Method: zip.Store, Modified: ModTime}
		h.SetMode(fs.ModeSymlink | 0o777)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		_, _ = io.WriteString(w, "/etc/passwd")
	case Bomb:
		return buildBomb()
	default:
		return nil, fmt.Errorf("build zip: unknown kind %q", spec.Kind)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("close zip: %w", err)
	}
	return buf.Bytes(), nil
}

func addProject(zw *zip.Writer) error {
	for _, f := range projectFiles {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: ModTime})
		if err != nil {
			return fmt.Errorf("add %s: %w", f.name, err)
		}
		if _, err := io.WriteString(w, f.body); err != nil {
			return fmt.Errorf("write %s: %w", f.name, err)
		}
	}
	return nil
}

// writeGoodZip writes the project plus stored blobs of deterministic random
// bytes until the archive is about spec.Size.
func writeGoodZip(w io.Writer, spec Spec) error {
	zw := zip.NewWriter(w)
	if err := addProject(zw); err != nil {
		return err
	}
	remaining := spec.Size - 1024
	rng := rand.New(rand.NewChaCha8(seed32(spec.Seed)))
	buf := make([]byte, 64<<10)
	for i := 0; remaining > 0; i++ {
		n := min(remaining, 32<<20)
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("data/blob-%03d.bin", i), Method: zip.Store, Modified: ModTime})
		if err != nil {
			return fmt.Errorf("add blob: %w", err)
		}
		for left := n; left > 0; {
			k := min(left, int64(len(buf)))
			fillRandom(rng, buf[:k])
			if _, err := fw.Write(buf[:k]); err != nil {
				return fmt.Errorf("write blob: %w", err)
			}
			left -= k
		}
		remaining -= n + 100
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("close zip: %w", err)
	}
	return nil
}

func seed32(s int64) [32]byte {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:], uint64(s)+0x5eed)
	copy(b[8:], "ferry provider simulator")
	return b
}

func fillRandom(rng *rand.Rand, b []byte) {
	for i := 0; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], rng.Uint64())
	}
	for i := len(b) &^ 7; i < len(b); i++ {
		b[i] = byte(rng.Uint32())
	}
}

// buildBomb writes one 64 MiB entry of zeros (ratio ≈ 1000×) and then adds two
// extra central-directory records pointing at the same local header, so the
// entries overlap — the construction of overlapping-file zip bombs.
func buildBomb() ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestSpeed)
	})
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "bomb.bin", Method: zip.Deflate, Modified: ModTime})
	if err != nil {
		return nil, err
	}
	zeros := make([]byte, 1<<20)
	for i := 0; i < 64; i++ {
		if _, err := w.Write(zeros); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return duplicateCentralEntry(buf.Bytes(), []string{"bom2.bin", "bom3.bin"})
}

// duplicateCentralEntry appends copies of the first central-directory record
// under new names of the same length and fixes the end record.
func duplicateCentralEntry(b []byte, names []string) ([]byte, error) {
	if len(b) < 22 {
		return nil, errors.New("duplicate central entry: archive too short")
	}
	eocd := b[len(b)-22:]
	if binary.LittleEndian.Uint32(eocd) != 0x06054b50 {
		return nil, errors.New("duplicate central entry: no end record")
	}
	cdSize := binary.LittleEndian.Uint32(eocd[12:])
	cdOff := binary.LittleEndian.Uint32(eocd[16:])
	count := binary.LittleEndian.Uint16(eocd[10:])
	cd := b[cdOff : cdOff+cdSize]
	nameLen := int(binary.LittleEndian.Uint16(cd[28:]))
	extraLen := int(binary.LittleEndian.Uint16(cd[30:]))
	commentLen := int(binary.LittleEndian.Uint16(cd[32:]))
	rec := cd[:46+nameLen+extraLen+commentLen]
	out := append([]byte{}, b[:cdOff+cdSize]...)
	for _, n := range names {
		if len(n) != nameLen {
			return nil, errors.New("duplicate central entry: name length differs")
		}
		dup := append([]byte{}, rec...)
		copy(dup[46:], n)
		out = append(out, dup...)
		cdSize += uint32(len(dup))
		count++
	}
	end := append([]byte{}, eocd...)
	binary.LittleEndian.PutUint16(end[8:], count)
	binary.LittleEndian.PutUint16(end[10:], count)
	binary.LittleEndian.PutUint32(end[12:], cdSize)
	return append(out, end...), nil
}
