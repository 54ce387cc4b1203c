package hotkey

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A global hotkey over the X11 protocol, spoken directly on the display's
// socket (stdlib only, no cgo, no Xlib).
//
// Why not golang.design/x/hotkey: its Linux side is Xlib through cgo, whose
// package init panics when no display opens (the desktop binary could then
// not even print its "no display" advice, and a Wayland session without
// XWayland would crash at start); a combination another client holds makes
// XGrabKey raise BadAccess, which Xlib's default error handler answers with
// exit(1); and Unregister blocks until the key is next pressed. Here the
// grab's BadAccess is an ordinary error reply on our own connection: the
// check before the grab is the grab itself, followed by a round trip, and a
// taken combination is an error value, never a crash.

// X11 protocol numbers used here (X Window System Protocol, X11R7).
const (
	x11OpGrabKey            = 33
	x11OpUngrabKey          = 34
	x11OpGetInputFocus      = 43
	x11OpGetKeyboardMapping = 101

	x11ErrBadAccess = 10

	x11KeyPress     = 2
	x11GenericEvent = 35

	x11ModShift   = 1 << 0
	x11ModLock    = 1 << 1
	x11ModControl = 1 << 2
	x11ModMod1    = 1 << 3 // Alt on every common layout
	x11ModMod2    = 1 << 4 // NumLock on every common layout
	x11ModMod4    = 1 << 6 // Super on every common layout
)

var (
	// errHotkeyTaken: another client holds the combination.
	errHotkeyTaken = errors.New("another program already uses this key combination")
	// errNoKeycode: the keyboard has no key for the keysym.
	errNoKeycode = errors.New("the keyboard layout has no key for it")
)

// x11Conn is one connection to an X server, enough to grab keys and read
// their presses.
type x11Conn struct {
	c      net.Conn
	r      *bufio.Reader
	root   uint32
	minKC  byte
	maxKC  byte
	seq    uint16 // sequence number of the last request sent
	wmu    sync.Mutex
	closed chan struct{}
	once   sync.Once
}

// x11Display is a parsed DISPLAY value.
type x11Display struct {
	host   string // "" for the local machine
	number int
}

func parseX11Display(display string) (x11Display, error) {
	host, rest, ok := strings.Cut(display, ":")
	if !ok || strings.HasPrefix(rest, ":") {
		return x11Display{}, fmt.Errorf("DISPLAY=%q is not of the form [host]:number", display)
	}
	numText, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(numText)
	if err != nil || n < 0 {
		return x11Display{}, fmt.Errorf("DISPLAY=%q has no display number", display)
	}
	if host == "unix" {
		host = ""
	}
	return x11Display{host: host, number: n}, nil
}

// dialX11 connects to display and completes the connection setup, with the
// MIT-MAGIC-COOKIE-1 from xauthority (a path; "" for $XAUTHORITY or
// ~/.Xauthority) when it has one for the display.
func dialX11(display, xauthority string) (*x11Conn, error) {
	d, err := parseX11Display(display)
	if err != nil {
		return nil, err
	}
	var c net.Conn
	if d.host == "" {
		sock := fmt.Sprintf("/tmp/.X11-unix/X%d", d.number)
		c, err = net.DialTimeout("unix", sock, 2*time.Second)
		if err != nil && runtime.GOOS == "linux" {
			c, err = net.DialTimeout("unix", "@"+sock, 2*time.Second)
		}
	} else {
		c, err = net.DialTimeout("tcp", net.JoinHostPort(d.host, strconv.Itoa(6000+d.number)), 2*time.Second)
	}
	if err != nil {
		return nil, fmt.Errorf("connect to the X server of DISPLAY=%s: %w", display, err)
	}
	x := &x11Conn{c: c, r: bufio.NewReader(c), closed: make(chan struct{})}
	name, data := x11Cookie(xauthority, d.number)
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if err := x.setup(name, data); err != nil {
		c.Close()
		return nil, fmt.Errorf("set up the X connection to DISPLAY=%s: %w", display, err)
	}
	_ = c.SetDeadline(time.Time{})
	return x, nil
}

func pad4(n int) int { return (4 - n%4) % 4 }

func (x *x11Conn) setup(authName string, authData []byte) error {
	var b bytes.Buffer
	b.WriteByte('l') // little-endian
	b.WriteByte(0)
	le := binary.LittleEndian
	for _, v := range []uint16{11, 0, uint16(len(authName)), uint16(len(authData)), 0} {
		_ = binary.Write(&b, le, v)
	}
	b.WriteString(authName)
	b.Write(make([]byte, pad4(len(authName))))
	b.Write(authData)
	b.Write(make([]byte, pad4(len(authData))))
	if _, err := x.c.Write(b.Bytes()); err != nil {
		return err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(x.r, head); err != nil {
		return err
	}
	rest := make([]byte, int(le.Uint16(head[6:8]))*4)
	if _, err := io.ReadFull(x.r, rest); err != nil {
		return err
	}
	switch head[0] {
	case 1:
	case 0:
		n := min(int(head[1]), len(rest))
		return fmt.Errorf("the server refused the connection: %s", strings.TrimSpace(string(rest[:n])))
	default:
		return fmt.Errorf("the server wants an authentication Ferry does not speak: %s", strings.TrimRight(string(rest), "\x00"))
	}
	if len(rest) < 32 {
		return fmt.Errorf("short setup reply (%d bytes)", len(rest))
	}
	vendorLen := int(le.Uint16(rest[16:18]))
	formats := int(rest[21])
	x.minKC, x.maxKC = rest[26], rest[27]
	screen := 32 + vendorLen + pad4(vendorLen) + 8*formats
	if int(rest[20]) < 1 || len(rest) < screen+4 {
		return errors.New("the server reports no screen")
	}
	x.root = le.Uint32(rest[screen : screen+4])
	return nil
}

// x11Cookie finds the MIT-MAGIC-COOKIE-1 for display number n in the
// Xauthority file; none means connecting without one (servers that do not
// check, such as a bare Xvfb, accept that).
func x11Cookie(path string, n int) (string, []byte) {
	if path == "" {
		path = os.Getenv("XAUTHORITY")
	}
	if path == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", nil
		}
		path = filepath.Join(home, ".Xauthority")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil
	}
	want := strconv.Itoa(n)
	field := func() ([]byte, bool) {
		if len(b) < 2 {
			return nil, false
		}
		l := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+l {
			return nil, false
		}
		f := b[2 : 2+l]
		b = b[2+l:]
		return f, true
	}
	for len(b) >= 2 {
		b = b[2:] // family: every family names this machine or a wildcard for a local display
		_, ok1 := field()
		num, ok2 := field()
		name, ok3 := field()
		data, ok4 := field()
		if !(ok1 && ok2 && ok3 && ok4) {
			return "", nil
		}
		if string(name) == "MIT-MAGIC-COOKIE-1" && (string(num) == want || len(num) == 0) {
			return string(name), append([]byte(nil), data...)
		}
	}
	return "", nil
}

// send writes one request and returns its sequence number.
func (x *x11Conn) send(req []byte) (uint16, error) {
	x.wmu.Lock()
	defer x.wmu.Unlock()
	if _, err := x.c.Write(req); err != nil {
		return 0, err
	}
	x.seq++
	return x.seq, nil
}

// packet reads one server packet (reply, error or event) in full.
func (x *x11Conn) packet() ([]byte, error) {
	p := make([]byte, 32)
	if _, err := io.ReadFull(x.r, p); err != nil {
		return nil, err
	}
	if p[0] == 1 || p[0]&0x7f == x11GenericEvent {
		extra := make([]byte, int(binary.LittleEndian.Uint32(p[4:8]))*4)
		if _, err := io.ReadFull(x.r, extra); err != nil {
			return nil, err
		}
		p = append(p, extra...)
	}
	return p, nil
}

// x11Error is an error packet from the server.
type x11Error struct {
	Code  byte
	Major byte
	Seq   uint16
}

func (e x11Error) Error() string {
	return fmt.Sprintf("X error %d on request %d", e.Code, e.Major)
}

// roundTrip sends req, then GetInputFocus, and reads until the latter's
// reply: every error the server raised for the requests in between is
// returned, and the reply to req when it has one. Events read meanwhile are
// dropped (nothing is grabbed yet when this is used).
func (x *x11Conn) roundTrip(reqs ...[]byte) (reply []byte, errs []x11Error, err error) {
	first := x.seq + 1
	for _, r := range reqs {
		if _, err := x.send(r); err != nil {
			return nil, nil, err
		}
	}
	fence, err := x.send([]byte{x11OpGetInputFocus, 0, 1, 0})
	if err != nil {
		return nil, nil, err
	}
	_ = x.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	defer x.c.SetReadDeadline(time.Time{})
	for {
		p, err := x.packet()
		if err != nil {
			return nil, nil, err
		}
		seq := binary.LittleEndian.Uint16(p[2:4])
		switch p[0] {
		case 0:
			errs = append(errs, x11Error{Code: p[1], Major: p[10], Seq: seq})
		case 1:
			if seq == fence {
				return reply, errs, nil
			}
			if seq >= first {
				reply = p
			}
		}
	}
}

// keycode returns the keycode that produces keysym on the current layout,
// preferring a key where it is the unshifted symbol.
func (x *x11Conn) keycode(keysym uint32) (byte, error) {
	count := int(x.maxKC) - int(x.minKC) + 1
	req := []byte{x11OpGetKeyboardMapping, 0, 2, 0, x.minKC, byte(count), 0, 0}
	reply, errs, err := x.roundTrip(req)
	if err != nil {
		return 0, err
	}
	if len(errs) > 0 || len(reply) < 32 {
		return 0, fmt.Errorf("read the keyboard mapping: %v", errs)
	}
	per := int(reply[1])
	syms := reply[32:]
	best, bestCol := byte(0), per
	for i := 0; i < count; i++ {
		for col := 0; col < per && col < bestCol; col++ {
			off := (i*per + col) * 4
			if off+4 > len(syms) {
				break
			}
			if binary.LittleEndian.Uint32(syms[off:off+4]) == keysym {
				best, bestCol = byte(int(x.minKC)+i), col
			}
		}
	}
	if bestCol == per {
		return 0, errNoKeycode
	}
	return best, nil
}

// lockVariants are the lock modifiers a grab must also cover: with
// NumLock or CapsLock on, X reports them in the state and an exact grab
// would not match.
var lockVariants = []uint16{0, x11ModLock, x11ModMod2, x11ModLock | x11ModMod2}

func grabReq(op byte, key byte, root uint32, mods uint16) []byte {
	le := binary.LittleEndian
	if op == x11OpGrabKey {
		b := make([]byte, 16)
		b[0], b[1] = x11OpGrabKey, 0 // owner-events false: the press comes to us
		le.PutUint16(b[2:], 4)
		le.PutUint32(b[4:], root)
		le.PutUint16(b[8:], mods)
		b[10], b[11], b[12] = key, 1, 1 // keycode, pointer and keyboard async
		return b
	}
	b := make([]byte, 12)
	b[0], b[1] = x11OpUngrabKey, key
	le.PutUint16(b[2:], 3)
	le.PutUint32(b[4:], root)
	le.PutUint16(b[8:], mods)
	return b
}

// grab grabs key with mods (and the lock variants) on the root window.
// When another client holds any of them, what was grabbed is released and
// errHotkeyTaken returned: the server answers BadAccess on this connection,
// and nothing else happens.
func (x *x11Conn) grab(key byte, mods uint16) error {
	reqs := make([][]byte, 0, len(lockVariants))
	for _, v := range lockVariants {
		reqs = append(reqs, grabReq(x11OpGrabKey, key, x.root, mods|v))
	}
	_, errs, err := x.roundTrip(reqs...)
	if err != nil {
		return err
	}
	if len(errs) == 0 {
		return nil
	}
	var undo [][]byte
	for _, v := range lockVariants {
		undo = append(undo, grabReq(x11OpUngrabKey, key, x.root, mods|v))
	}
	_, _, _ = x.roundTrip(undo...)
	for _, e := range errs {
		if e.Code == x11ErrBadAccess && e.Major == x11OpGrabKey {
			return errHotkeyTaken
		}
	}
	return errs[0]
}

// listen calls onPress for each press of a grabbed key until the
// connection closes. Auto-repeat presses within repeatGap are one press.
func (x *x11Conn) listen(onPress func()) {
	const repeatGap = 300 * time.Millisecond
	var last time.Time
	for {
		p, err := x.packet()
		if err != nil {
			return
		}
		if p[0]&0x7f == x11KeyPress {
			if now := time.Now(); now.Sub(last) > repeatGap {
				last = now
				onPress()
			} else {
				last = now
			}
		}
	}
}

func (x *x11Conn) Close() error {
	var err error
	x.once.Do(func() {
		close(x.closed)
		err = x.c.Close() // the server drops our grabs with the connection
	})
	return err
}
