// Package win32 holds what the desktop's Windows parts share of the Win32
// API: user32 and shell32, loaded from System32 only, the message a
// thread's queue holds and GetMessageW to read it. On other platforms it is
// empty.
package win32
