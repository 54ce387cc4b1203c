// The System bound struct (app/system.go).

import * as System from '../../../wailsjs/go/app/System';
import type { app, service, version } from '../../../wailsjs/go/models';
import { call } from './call';

export type Status = app.Status;
export type Report = service.SetupReport;
export type Check = service.SetupCheck;
export type VersionInfo = version.Info;

/** frontendReady tells the app the shell has mounted (the GUI test waits for it). */
export const frontendReady = (): Promise<void> => call(() => System.FrontendReady());

/** windowFocused tells the app whether the window has the focus (no notifications meanwhile). */
export const windowFocused = (focused: boolean): Promise<void> => call(() => System.WindowFocused(focused));

/** versionInfo returns the build's version. */
export const versionInfo = (): Promise<VersionInfo> => call(() => System.Version());

/** status returns the data directory's paths and why the core is not open, if so. */
export const status = (): Promise<Status> => call(() => System.Status());

/** doctor runs `ferry doctor`'s checks. */
export const runDoctor = (): Promise<Report> => call(() => System.Doctor());

/** autostart reports whether Ferry starts at login, in the tray. */
export const autostart = (): Promise<boolean> => call(() => System.Autostart());

/** setAutostart writes or removes the login entry; it returns the new state. */
export const setAutostart = (on: boolean): Promise<boolean> => call(() => System.SetAutostart(on));

export type DemoStatus = app.DemoStatus;

/** demo reports whether this window is the demo (`ferry-desktop --demo`). */
export const demo = (): Promise<DemoStatus> => call(() => System.Demo());

/** startDemo starts the demo as its own process; this window hides until it ends. */
export const startDemo = (): Promise<void> => call(() => System.StartDemo());

/** leaveDemo closes the demo: its simulator, browser and data go with it. */
export const leaveDemo = (): Promise<void> => call(() => System.LeaveDemo());
