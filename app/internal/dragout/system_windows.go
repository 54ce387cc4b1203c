package dragout

// System on Windows: WebView2 takes Chromium's DownloadURL, served
// on loopback, of the files find accepts.
func System(find func(path string) (string, error)) Drag { return &dragServer{find: find} }
