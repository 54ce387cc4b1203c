package artifact

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Unix file-type and special bits as stored in the high half of a zip
// entry's external attributes.
const (
	unixTypeMask = 0o170000
	unixRegular  = 0o100000
	unixDir      = 0o040000
	unixSetuid   = 0o4000
	unixSetgid   = 0o2000
	dosDirAttr   = 0x10
)

// UnsafeName says why name must not be extracted, or "" when it is safe:
// empty, not UTF-8, NUL or control characters, backslashes, absolute paths,
// drive letters and other colons, ".." components (also the Windows
// spellings "..." and ". ." that resolve to it), and Windows device names.
func UnsafeName(name string) string {
	switch {
	case name == "":
		return "the name is empty"
	case !utf8.ValidString(name):
		return "the name is not valid UTF-8"
	case strings.ContainsRune(name, 0):
		return "the name holds a NUL byte"
	case strings.ContainsRune(name, '\\'):
		return "the name holds a backslash"
	case strings.HasPrefix(name, "/"):
		return "the name is an absolute path"
	case len(name) >= 2 && name[1] == ':' && isASCIILetter(name[0]):
		return "the name starts with a drive letter"
	case strings.ContainsRune(name, ':'):
		return "the name holds a colon (a Windows drive or alternate data stream)"
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return "the name holds a control character"
		}
	}
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			return "the name has a \"..\" component"
		}
		if len(c) >= 2 && strings.TrimRight(c, ". ") == "" {
			return "the name has a component of dots and spaces that Windows reads as \"..\""
		}
		if windowsReserved(c) {
			return fmt.Sprintf("the component %q is a reserved device name on Windows", c)
		}
	}
	return ""
}

// windowsReserved reports device names that Windows opens as devices
// whatever the extension (CON, NUL, COM1, LPT1.txt …).
func windowsReserved(c string) bool {
	stem, _, _ := strings.Cut(c, ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) && stem[3] >= '1' && stem[3] <= '9' {
		return true
	}
	return false
}

func isASCIILetter(b byte) bool { return ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') }

// entryMode derives the entry's mode and reports special files and
// set-id bits. The high half of the external attributes is read whatever
// the creator system says, because extractors that honour it do not check.
func entryMode(ce *centralEntry, v *Verdict) (fs.FileMode, bool) {
	unix := ce.extAttr >> 16
	dir := strings.HasSuffix(ce.name, "/") || unix&unixTypeMask == unixDir ||
		(unix == 0 && ce.extAttr&dosDirAttr != 0)
	switch t := unix & unixTypeMask; t {
	case 0, unixRegular, unixDir:
	default:
		v.add(ReasonSpecialFile, ce.name, "the entry is a %s", unixTypeName(t))
	}
	if unix&(unixSetuid|unixSetgid) != 0 {
		v.add(ReasonSetuid, ce.name, "the entry has the setuid or setgid bit (mode %o)", unix&0o7777)
	}
	perm := fs.FileMode(unix & 0o777)
	if unix == 0 {
		perm = 0o644
		if dir {
			perm = 0o755
		}
	}
	if dir {
		return fs.ModeDir | perm, true
	}
	return perm, false
}

func unixTypeName(t uint32) string {
	switch t {
	case 0o120000:
		return "symbolic link"
	case 0o020000:
		return "character device"
	case 0o060000:
		return "block device"
	case 0o010000:
		return "named pipe"
	case 0o140000:
		return "socket"
	}
	return "special file"
}

// nameSet finds names that collide once extracted on a case-insensitive or
// normalising file system, and files that another entry uses as a directory.
type nameSet struct {
	fold  cases.Caser
	seen  map[string]string // key -> first name
	files map[string]string // keys of regular files
	dirs  map[string]string // keys of every parent directory
}

func newNameSet() *nameSet {
	return &nameSet{fold: cases.Fold(), seen: map[string]string{}, files: map[string]string{}, dirs: map[string]string{}}
}

func (s *nameSet) key(name string) string {
	return s.fold.String(norm.NFC.String(path.Clean(strings.TrimSuffix(name, "/"))))
}

func (s *nameSet) add(ce *centralEntry, dir bool, v *Verdict) {
	if why := UnsafeName(ce.name); why != "" {
		v.add(ReasonUnsafeName, ce.name, "%s", why)
		return
	}
	if ce.unicodeName != nil && string(ce.unicodeName) != ce.name {
		v.add(ReasonHeaderMismatch, ce.name, "its Unicode path field names %q", ce.unicodeName)
		return
	}
	k := s.key(ce.name)
	if first, dup := s.seen[k]; dup {
		v.add(ReasonDuplicateName, ce.name, "collides with %q after case folding and normalisation", first)
		return
	}
	s.seen[k] = ce.name
	if !dir {
		if other, used := s.dirs[k]; used {
			v.add(ReasonDuplicateName, ce.name, "is a file, but %q uses it as a directory", other)
			return
		}
		s.files[k] = ce.name
	}
	for p := path.Dir(k); p != "." && p != "/"; p = path.Dir(p) {
		if f, isFile := s.files[p]; isFile {
			v.add(ReasonDuplicateName, ce.name, "uses the file %q as a directory", f)
			return
		}
		if _, ok := s.dirs[p]; ok {
			break
		}
		s.dirs[p] = ce.name
	}
}
