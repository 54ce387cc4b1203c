//go:build package

package packagetest

import (
	"debug/pe"
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// Resource types (winuser.h).
const (
	rtGroupIcon = 14
	rtVersion   = 16
	rtManifest  = 24
)

// resources maps a PE file's resources by type and ID (the first language
// of each) to their bytes, read from its .rsrc section.
func resources(f *pe.File) (map[[2]uint32][]byte, error) {
	s := f.Section(".rsrc")
	if s == nil {
		return nil, fmt.Errorf("no .rsrc section")
	}
	data, err := s.Data()
	if err != nil {
		return nil, fmt.Errorf("read .rsrc: %w", err)
	}
	le := binary.LittleEndian
	// entries lists a directory's (ID, offset) pairs; named entries are skipped.
	entries := func(off uint32) ([][2]uint32, error) {
		if int(off)+16 > len(data) {
			return nil, fmt.Errorf("directory at %#x is past the section", off)
		}
		named, ids := int(le.Uint16(data[off+12:])), int(le.Uint16(data[off+14:]))
		var out [][2]uint32
		for i := 0; i < named+ids; i++ {
			e := int(off) + 16 + 8*i
			if e+8 > len(data) {
				return nil, fmt.Errorf("entry at %#x is past the section", e)
			}
			name, to := le.Uint32(data[e:]), le.Uint32(data[e+4:])
			if name&0x80000000 == 0 {
				out = append(out, [2]uint32{name, to})
			}
		}
		return out, nil
	}
	res := map[[2]uint32][]byte{}
	types, err := entries(0)
	if err != nil {
		return nil, err
	}
	for _, typ := range types {
		ids, err := entries(typ[1] &^ 0x80000000)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			langs, err := entries(id[1] &^ 0x80000000)
			if err != nil || len(langs) == 0 {
				return nil, fmt.Errorf("resource %d/%d: no language entry (%v)", typ[0], id[0], err)
			}
			leaf := langs[0][1]
			if int(leaf)+16 > len(data) {
				return nil, fmt.Errorf("resource %d/%d: data entry past the section", typ[0], id[0])
			}
			rva, size := le.Uint32(data[leaf:]), le.Uint32(data[leaf+4:])
			start := int(rva) - int(s.VirtualAddress)
			if start < 0 || start+int(size) > len(data) {
				return nil, fmt.Errorf("resource %d/%d: data at RVA %#x is outside .rsrc", typ[0], id[0], rva)
			}
			res[[2]uint32{typ[0], id[0]}] = data[start : start+int(size)]
		}
	}
	return res, nil
}

// versionInfo is what a VS_VERSIONINFO resource says: the fixed file
// version (four numbers) and the StringFileInfo strings of its first table.
type versionInfo struct {
	fileVersion [4]uint16
	strings     map[string]string
}

// parseVersionInfo reads a VS_VERSIONINFO block tree.
func parseVersionInfo(b []byte) (versionInfo, error) {
	vi := versionInfo{strings: map[string]string{}}
	le := binary.LittleEndian
	align := func(n int) int { return (n + 3) &^ 3 }
	// block parses the block at b[off:], calling visit with its key, type and
	// value, and descends into its children; it returns the block's length.
	var block func(off int, depth int, visit func(depth int, key string, typ uint16, value []byte)) (int, error)
	block = func(off int, depth int, visit func(int, string, uint16, []byte)) (int, error) {
		if off+6 > len(b) {
			return 0, fmt.Errorf("block at %d is past the resource", off)
		}
		length, valueLen, typ := int(le.Uint16(b[off:])), int(le.Uint16(b[off+2:])), le.Uint16(b[off+4:])
		if length < 6 || off+length > len(b) {
			return 0, fmt.Errorf("block at %d: length %d", off, length)
		}
		end := off + length
		p := off + 6
		var key []uint16
		for ; p+2 <= end; p += 2 {
			c := le.Uint16(b[p:])
			if c == 0 {
				p += 2
				break
			}
			key = append(key, c)
		}
		p = align(p)
		if typ == 1 {
			valueLen *= 2 // text values count WORDs
		}
		if p+valueLen > end {
			return 0, fmt.Errorf("block %q: value past its end", string(utf16.Decode(key)))
		}
		visit(depth, string(utf16.Decode(key)), typ, b[p:p+valueLen])
		for p = align(p + valueLen); p < end; p = align(p) {
			n, err := block(p, depth+1, visit)
			if err != nil {
				return 0, err
			}
			p += n
		}
		return length, nil
	}
	var fixed bool
	_, err := block(0, 0, func(depth int, key string, typ uint16, value []byte) {
		switch {
		case depth == 0 && key == "VS_VERSION_INFO" && len(value) >= 52 && le.Uint32(value) == 0xFEEF04BD:
			ms, ls := le.Uint32(value[8:]), le.Uint32(value[12:])
			vi.fileVersion = [4]uint16{uint16(ms >> 16), uint16(ms), uint16(ls >> 16), uint16(ls)}
			fixed = true
		case depth == 3 && typ == 1:
			u := make([]uint16, len(value)/2)
			for i := range u {
				u[i] = le.Uint16(value[2*i:])
			}
			for len(u) > 0 && u[len(u)-1] == 0 {
				u = u[:len(u)-1]
			}
			vi.strings[key] = string(utf16.Decode(u))
		}
	})
	if err != nil {
		return vi, err
	}
	if !fixed {
		return vi, fmt.Errorf("no VS_FIXEDFILEINFO")
	}
	return vi, nil
}

// iconSizes lists the pixel sizes of an RT_GROUP_ICON (0 in the entry is 256).
func iconSizes(b []byte) ([]int, error) {
	if len(b) < 6 || binary.LittleEndian.Uint16(b[2:]) != 1 {
		return nil, fmt.Errorf("not an icon group")
	}
	n := int(binary.LittleEndian.Uint16(b[4:]))
	if len(b) < 6+14*n {
		return nil, fmt.Errorf("icon group of %d entries is cut short", n)
	}
	var sizes []int
	for i := 0; i < n; i++ {
		w := int(b[6+14*i])
		if w == 0 {
			w = 256
		}
		sizes = append(sizes, w)
	}
	return sizes, nil
}
