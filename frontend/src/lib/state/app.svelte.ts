// What the shell knows about the backend: status (paths and why the core is
// not open), the settings, the version and the doctor's report. API responses
// are kept raw: they are replaced whole, never mutated in place.

import { EnvelopeError, toEnvelope, type Envelope } from '../envelope';
import * as settingsApi from '../api/settings';
import * as systemApi from '../api/system';
import { theme } from './theme.svelte';
import { toasts } from './toasts.svelte';

export class AppState {
  status = $state.raw<systemApi.Status | null>(null);
  settings = $state.raw<settingsApi.SettingsData | null>(null);
  /** Why the settings could not be loaded (config_invalid for a malformed file). */
  settingsProblem = $state.raw<Envelope | null>(null);
  version = $state.raw<systemApi.VersionInfo | null>(null);
  report = $state.raw<systemApi.Report | null>(null);
  doctorRunning = $state(false);
  saving = $state(false);
  resetting = $state(false);

  /** load fetches everything the shell shows at start; problems become toasts. */
  async load(): Promise<void> {
    const [status, version] = await Promise.allSettled([systemApi.status(), systemApi.versionInfo()]);
    if (version.status === 'fulfilled') this.version = version.value;
    if (status.status === 'fulfilled') {
      this.applyStatus(status.value);
      if (status.value.problem) toasts.error(status.value.problem);
    } else {
      toasts.error(status.reason);
    }
    await this.loadSettings();
  }

  applyStatus(s: systemApi.Status): void {
    this.status = s;
  }

  async loadSettings(): Promise<void> {
    try {
      this.applySettings(await settingsApi.get());
    } catch (e) {
      this.settings = null;
      this.settingsProblem = toEnvelope(e);
    }
  }

  applySettings(s: settingsApi.SettingsData): void {
    this.settings = s;
    this.settingsProblem = null;
    theme.setting = s.theme;
  }

  /** setTheme saves the theme; a rejected value shows the envelope and changes nothing. */
  async setTheme(value: string): Promise<void> {
    if (!this.settings) return;
    this.saving = true;
    try {
      this.applySettings(await settingsApi.save({ ...this.settings, theme: value } as settingsApi.SettingsData));
    } catch (e) {
      toasts.error(e);
    } finally {
      this.saving = false;
    }
  }

  /** reset keeps the settings file as .bak, writes defaults and reloads. */
  async reset(): Promise<void> {
    this.resetting = true;
    try {
      const r = await settingsApi.reset();
      toasts.success('Settings reset to defaults', r.backup ? `The previous file was kept as ${r.backup}` : '');
      this.applyStatus(await systemApi.status());
      await this.loadSettings();
      void this.runDoctor();
    } catch (e) {
      toasts.error(e);
    } finally {
      this.resetting = false;
    }
  }

  async runDoctor(): Promise<void> {
    if (this.doctorRunning) {
      this.#doctorAgain = true;
      return;
    }
    this.doctorRunning = true;
    try {
      do {
        this.#doctorAgain = false;
        this.report = await systemApi.runDoctor();
      } while (this.#doctorAgain);
    } catch (e) {
      toasts.error(e instanceof EnvelopeError ? e.envelope : e);
    } finally {
      this.doctorRunning = false;
    }
  }

  /** #doctorAgain says something changed while the checks ran: they run once more. */
  #doctorAgain = false;

  /**
   * settingsSaved takes the settings a save put in force (from this window
   * or another face) and, once the checks were shown, checks again: the
   * settings file and the browser they name have changed.
   */
  settingsSaved(s: settingsApi.SettingsData): void {
    this.applySettings(s);
    if (this.report) void this.runDoctor();
  }
}

export const appState = new AppState();
