package service

// BrowserOwn is Ferry's own running browser: the implementation's
// long-lived browser when it has one, else the browser running on the data
// directory's profile (found by its DevToolsActivePort). It takes no
// address and no launch options.
const BrowserOwn BrowserMode = "own"
