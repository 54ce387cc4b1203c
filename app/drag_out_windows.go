package app

// systemDragOut on Windows: WebView2 takes Chromium's DownloadURL, served
// on loopback.
func systemDragOut(a *Artifacts) dragOut { return &dragServer{find: a.DragPath} }
