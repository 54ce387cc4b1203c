//go:build linux && (desktop || dev)

package window

/*
#cgo linux pkg-config: gtk+-3.0
#include <gtk/gtk.h>

// ferry_main_window is the app's own window: the top-level window that is
// neither an offscreen helper nor a dialog nor transient for another (the
// file chooser of Save as… is all three). Called on the GTK main thread.
static GtkWindow *ferry_main_window(void) {
	GtkWindow *found = NULL;
	GList *all = gtk_window_list_toplevels();
	for (GList *l = all; l != NULL && found == NULL; l = l->next) {
		GtkWindow *w = GTK_WINDOW(l->data);
		if (gtk_window_get_window_type(w) == GTK_WINDOW_TOPLEVEL &&
		    !GTK_IS_OFFSCREEN_WINDOW(w) && !GTK_IS_DIALOG(w) &&
		    gtk_window_get_transient_for(w) == NULL) {
			found = w;
		}
	}
	g_list_free(all);
	return found;
}

// ferry_window_op is a change to the main window, applied on the main loop:
// a move when move is set, a resize when width is set, else keep-above on
// or off.
typedef struct { int width, height, above, move, x, y; } ferry_window_op;

static gboolean ferry_apply(gpointer data) {
	ferry_window_op *op = data;
	GtkWindow *w = ferry_main_window();
	if (w != NULL && op->move) {
		gtk_window_move(w, op->x, op->y);
	} else if (w != NULL && op->width > 0) {
		gtk_window_resize(w, op->width, op->height);
	} else if (w != NULL) {
		gtk_window_set_keep_above(w, op->above);
	}
	g_free(op);
	return G_SOURCE_REMOVE;
}

static void ferry_queue(int width, int height, int above) {
	ferry_window_op *op = g_new0(ferry_window_op, 1);
	op->width = width;
	op->height = height;
	op->above = above;
	g_idle_add(ferry_apply, op);
}

static void ferry_queue_move(int x, int y) {
	ferry_window_op *op = g_new0(ferry_window_op, 1);
	op->move = 1;
	op->x = x;
	op->y = y;
	g_idle_add(ferry_apply, op);
}
*/
import "C"

import "context"

// The runtime's WindowSetSize and WindowSetAlwaysOnTop call GTK from the
// caller's goroutine, and GTK is not thread-safe: a resize that races the
// main loop can be lost, leaving the window at the quick prompt's size after
// Esc. These queue the same calls on the GTK main loop instead, in order with
// the runtime's own main-thread calls (SetMinSize, Size, Center).

func windowSetSize(_ context.Context, width, height int) {
	C.ferry_queue(C.int(width), C.int(height), 0)
}

func windowSetAlwaysOnTop(_ context.Context, on bool) {
	above := 0
	if on {
		above = 1
	}
	C.ferry_queue(0, 0, C.int(above))
}

// windowMove puts the window's top-left corner at x, y on the screen (the
// coordinates gtk_window_get_position gives, which the runtime's
// WindowGetPosition reads), in order with the resizes above.
func windowMove(_ context.Context, x, y int) {
	C.ferry_queue_move(C.int(x), C.int(y))
}
