// Package notify shows desktop notifications: what a run's end or an
// agent's approval says (NoticeFor), one notice for a broadcast's runs
// (Groups), shown through the platform's notifier (System): the
// freedesktop notification service on the session bus, or on Windows a
// balloon on a notification icon of Ferry's own. A click on one comes back
// with the notice's target.
package notify

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/ferrydesk/ferry/app/internal/sessionbus"
)

// Notice is one desktop notification.
type Notice struct {
	Summary string
	Body    string
	// Target is what a click on the notification opens: a run's session id,
	// or "" to just show Ferry.
	Target string
	// Urgent asks the notification server to keep it until it is seen (an
	// approval or a check that waits for the user).
	Urgent bool
}

// Notifier shows desktop notifications. A click on one calls the onClick
// the notifier was made with, with the notice's Target.
type Notifier interface {
	// Notify shows n. It never blocks for long; a server that does not
	// answer is an error the caller only logs.
	Notify(n Notice) error
	// Close stops listening for clicks and releases the connection.
	Close() error
}

// Nop is in force without a session bus: notifications are off.
type Nop struct{}

func (Nop) Notify(Notice) error { return nil }
func (Nop) Close() error        { return nil }

// The freedesktop notification service (Desktop Notifications
// Specification 1.2).
const (
	notifyName      = "org.freedesktop.Notifications"
	notifyPath      = dbus.ObjectPath("/org/freedesktop/Notifications")
	notifyInterface = "org.freedesktop.Notifications"
	// notifyTimeout bounds one Notify call: a wedged notification server
	// must not hold up the event loop that reports a run's end.
	notifyTimeout = 3 * time.Second
	// defaultAction is the action key servers send for a click on the
	// notification's body.
	defaultAction = "default"
)

// newNotifier connects to the session bus at address and returns a
// notifier on it; with no address or no bus it logs one line and returns a
// no-op notifier, so a missing bus costs nothing but the notifications.
func newNotifier(address string, log *slog.Logger, onClick func(target string)) Notifier {
	if address == "" {
		log.Info("desktop notifications off: no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
		return Nop{}
	}
	conn, err := sessionbus.Dial(address)
	if err != nil {
		log.Info("desktop notifications off: cannot connect to the session bus", "err", err)
		return Nop{}
	}
	n, err := startDBusNotifier(conn, log, onClick)
	if err != nil {
		conn.Close()
		log.Info("desktop notifications off: cannot listen for clicks", "err", err)
		return Nop{}
	}
	return n
}

// dbusNotifier talks to org.freedesktop.Notifications over its own bus
// connection and turns ActionInvoked signals into onClick calls.
type dbusNotifier struct {
	conn    *dbus.Conn
	log     *slog.Logger
	onClick func(target string)

	mu      sync.Mutex
	targets map[uint32]string // notification id -> Target, until closed or clicked

	failOnce sync.Once // a missing server is logged once, not per run
	signals  chan *dbus.Signal
	done     chan struct{}
}

func startDBusNotifier(conn *dbus.Conn, log *slog.Logger, onClick func(string)) (*dbusNotifier, error) {
	for _, member := range []string{"ActionInvoked", "NotificationClosed"} {
		if err := conn.AddMatchSignal(dbus.WithMatchInterface(notifyInterface), dbus.WithMatchMember(member),
			dbus.WithMatchObjectPath(notifyPath)); err != nil {
			return nil, err
		}
	}
	n := &dbusNotifier{conn: conn, log: log, onClick: onClick, targets: map[uint32]string{},
		signals: make(chan *dbus.Signal, 16), done: make(chan struct{})}
	conn.Signal(n.signals)
	go n.listen()
	return n, nil
}

func (n *dbusNotifier) Notify(nt Notice) error {
	urgency := byte(1) // normal
	if nt.Urgent {
		urgency = 2 // critical: stays until the user acts
	}
	hints := map[string]dbus.Variant{
		"urgency":       dbus.MakeVariant(urgency),
		"desktop-entry": dbus.MakeVariant("ferry"),
	}
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	body := nt.Body
	if n.readsMarkup(ctx) {
		// A body holds an agent's prompt or a site's answer: on a server
		// that reads markup, <img> or <a href> in it would be shown as such.
		body = markupEscaper.Replace(body)
	}
	var id uint32
	err := n.conn.Object(notifyName, notifyPath).CallWithContext(ctx, notifyInterface+".Notify", 0,
		"Ferry", uint32(0), "ferry", nt.Summary, body, []string{defaultAction, "Open"}, hints, int32(-1)).Store(&id)
	if err != nil {
		n.failOnce.Do(func() {
			n.log.Info("desktop notification not shown: no notification server answers", "err", err)
		})
		return err
	}
	n.mu.Lock()
	n.targets[id] = nt.Target
	n.mu.Unlock()
	return nil
}

// listen handles the server's signals until the connection closes.
func (n *dbusNotifier) listen() {
	defer close(n.done)
	for sig := range n.signals {
		if len(sig.Body) < 2 {
			continue
		}
		id, ok := sig.Body[0].(uint32)
		if !ok {
			continue
		}
		switch sig.Name {
		case notifyInterface + ".ActionInvoked":
			action, _ := sig.Body[1].(string)
			n.mu.Lock()
			target, known := n.targets[id]
			delete(n.targets, id)
			n.mu.Unlock()
			// Another program's notification on the same bus is not ours
			// to act on.
			if known && (action == defaultAction || action == "Open") && n.onClick != nil {
				n.onClick(target)
			}
		case notifyInterface + ".NotificationClosed":
			n.mu.Lock()
			delete(n.targets, id)
			n.mu.Unlock()
		}
	}
}

func (n *dbusNotifier) Close() error {
	err := n.conn.Close() // closes n.signals, which ends listen
	<-n.done
	return err
}

var (
	_ Notifier = Nop{}
	_ Notifier = (*dbusNotifier)(nil)
)

// markupEscaper makes text literal in a notification body that the server
// reads as markup (the specification's body-markup: a subset of XML).
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// readsMarkup reports whether the notification server announces
// body-markup; a server that does not answer is taken to show text as it
// is.
func (n *dbusNotifier) readsMarkup(ctx context.Context) bool {
	var caps []string
	if err := n.conn.Object(notifyName, notifyPath).CallWithContext(ctx, notifyInterface+".GetCapabilities", 0).Store(&caps); err != nil {
		return false
	}
	return slices.Contains(caps, "body-markup")
}
