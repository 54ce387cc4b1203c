package app

// systemTrayPlace is Windows' notification area.
func systemTrayPlace() trayPlace { return notificationArea{} }

// notificationArea is trayPlace on Windows: Explorer's taskbar always has
// a notification area (it may fold the icon into its overflow, which the
// user opens with the ^ button), and no session bus is involved.
type notificationArea struct{}

func (notificationArea) Usable(string) error { return nil }
func (notificationArea) Shown(string) bool   { return true }

var _ trayPlace = notificationArea{}
