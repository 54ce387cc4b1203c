// The Tabs bound struct (app/tabs.go): the controlled browser and its tabs.

import * as Tabs from '../../../wailsjs/go/app/Tabs';
import type { record, service } from '../../../wailsjs/go/models';
import { call } from './call';

export type BrowserState = service.BrowserState;
export type TabState = record.TabState;

/** browserState describes the controlled browser without connecting. */
export const browserState = (): Promise<BrowserState> => call(() => Tabs.Browser());

/** connect launches or attaches per the settings unless connected. */
export const connect = (): Promise<BrowserState> => call(() => Tabs.Connect());

/** reconnect drops the browser and connects again with the settings in force. */
export const reconnect = (): Promise<BrowserState> => call(() => Tabs.Reconnect());

/** list returns the tabs with site, conversation and readiness; [] when not connected. */
export const list = (): Promise<TabState[]> => call(() => Tabs.List());

/** open opens a site's new chat in a new background tab. */
export const open = (site: string): Promise<TabState> => call(() => Tabs.Open(site));

/** show brings a tab to the front and raises the browser's window. */
export const show = (targetId: string): Promise<TabState> => call(() => Tabs.Show(targetId));

/** close closes a tab. */
export const close = (targetId: string): Promise<void> => call(() => Tabs.Close(targetId));

/** login shows a tab on its site's login page, in front. */
export const login = (targetId: string): Promise<TabState> => call(() => Tabs.Login(targetId));
