// The Welcome bound struct (app/welcome.go): the Get started view.

import * as Welcome from '../../../wailsjs/go/app/Welcome';
import type { service } from '../../../wailsjs/go/models';
import { call } from './call';

export type WelcomeState = service.Welcome;
export type SiteLogin = service.SiteLogin;

/** state says whether the window opens on Get started and whether a site is logged in. */
export const state = (): Promise<WelcomeState> => call(() => Welcome.State());

/** logins reads each site's login in Ferry's browser, without starting it. */
export const logins = (): Promise<SiteLogin[]> => call(() => Welcome.Logins());

/** openLogin opens a site's login page in Ferry's browser, in front. */
export const openLogin = (site: string): Promise<SiteLogin> => call(() => Welcome.OpenLogin(site));

/** dismiss records that the user left Get started; it returns the new state. */
export const dismiss = (): Promise<WelcomeState> => call(() => Welcome.Dismiss());
