// The Settings bound struct (app/settings.go).

import * as Settings from '../../../wailsjs/go/app/Settings';
import type { app, config, service } from '../../../wailsjs/go/models';
import { call } from './call';

export type SettingsData = config.Settings;
export type ResetResult = app.ResetResult;

/** get returns the settings in force; rejects with config_invalid for a malformed file. */
export const get = (): Promise<SettingsData> => call(() => Settings.Get());

/** save validates and saves; rejects with config_invalid for a bad value. */
export const save = (s: SettingsData): Promise<SettingsData> => call(() => Settings.Save(s));

/** reset keeps the current file as .bak and writes the defaults. */
export const reset = (): Promise<ResetResult> => call(() => Settings.Reset());

/** checkSites validates the sites editor's text; rejects with config_invalid (line, column in evidence). */
export const checkSites = (text: string): Promise<void> => call(() => Settings.CheckSites(text));

/** saveSites validates and saves the sites editor's text as the "sites" setting. */
export const saveSites = (text: string): Promise<SettingsData> => call(() => Settings.SaveSites(text));

export type Locations = app.Locations;

/** locations returns where the data lives (data dir, profile, artifacts, hub file…). */
export const locations = (): Promise<Locations> => call(() => Settings.Locations());

export type SitesReport = service.SitesReport;
export type SiteReport = service.SiteReport;

/** checkSitesLive checks the sites live and read-only in the owner's browser (none: every site in use). */
export const checkSitesLive = (ids: string[]): Promise<SitesReport> => call(() => Settings.CheckSitesLive(ids));

/** applySiteOverride adds a check's override to the "sites" setting (checked as the editor checks it) and saves it. */
export const applySiteOverride = (override: string): Promise<SettingsData> => call(() => Settings.ApplySiteOverride(override));
