// The Settings view's editors: each change is saved at once (on change, not
// per keystroke); a value the backend refuses stays in its field with the
// message beside it, and nothing is saved. The sites editor is checked as
// the user types and saved on demand.

import * as settingsApi from '../api/settings';
import * as gatewayApi from '../api/gateway';
import * as quickApi from '../api/quick';
import { toEnvelope, type Envelope } from '../envelope';
import { fieldMessage, fieldOf, sitesMarker, sitesToText, type SitesMarker } from '../settingsform';
import { appState } from './app.svelte';
import { toasts } from './toasts.svelte';

export const SITES_CHECK_DEBOUNCE_MS = 350;

type Mutable = settingsApi.SettingsData;

export class SettingsForm {
  /** Inline errors by field ("browser.attachURL", "run.answerTimeout", …). */
  errors = $state<Record<string, string>>({});
  savedField = $state('');
  sitesText = $state('');
  sitesDirty = $state(false);
  sitesMarker = $state.raw<SitesMarker | null>(null);
  sitesChecking = $state(false);
  sitesSaving = $state(false);
  locations = $state.raw<settingsApi.Locations | null>(null);
  extras = $state.raw<quickApi.ExtrasStatus | null>(null);
  clients = $state.raw<gatewayApi.ClientInfo[]>([]);
  clientsProblem = $state.raw<Envelope | null>(null);
  pairing = $state.raw<gatewayApi.PairingCode | null>(null);
  mcpConfigs = $state.raw<gatewayApi.MCPConfig[]>([]);
  mcpConfigsProblem = $state.raw<Envelope | null>(null);

  #timer: ReturnType<typeof setTimeout> | undefined;
  #seq = 0;

  /** load fetches what the editors show beside the settings. */
  async load(): Promise<void> {
    if (!this.sitesDirty) this.sitesText = sitesToText(appState.settings?.sites);
    const [loc, ex] = await Promise.allSettled([settingsApi.locations(), quickApi.status()]);
    if (loc.status === 'fulfilled') this.locations = loc.value;
    if (ex.status === 'fulfilled') this.extras = ex.value;
    await this.loadClients();
    await this.loadMCPConfigs();
  }

  /** set saves the settings with one change; a refusal lands on the field it names. */
  async set(field: string, change: (s: Mutable) => void): Promise<boolean> {
    const cur = appState.settings;
    if (!cur) return false;
    const next = JSON.parse(JSON.stringify(cur)) as Mutable;
    change(next);
    try {
      appState.applySettings(await settingsApi.save(next));
      this.#clear(field);
      this.savedField = field;
      if (field.startsWith('quickPrompt.')) void this.refreshExtras();
      return true;
    } catch (e) {
      const env = toEnvelope(e);
      const f = fieldOf(env) ?? field;
      this.errors = { ...this.errors, [f]: fieldMessage(env) };
      if (f !== field) this.#clear(field);
      return false;
    }
  }

  #clear(field: string): void {
    if (!(field in this.errors)) return;
    const next = { ...this.errors };
    delete next[field];
    this.errors = next;
  }

  async refreshExtras(): Promise<void> {
    try {
      this.extras = await quickApi.status();
    } catch {
      // The status is advisory; the field's own error says what matters.
    }
  }

  /** editSites records the editor's text and checks it after a pause. */
  editSites(text: string): void {
    this.sitesText = text;
    this.sitesDirty = true;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.checkSites(), SITES_CHECK_DEBOUNCE_MS);
  }

  async checkSites(): Promise<boolean> {
    clearTimeout(this.#timer);
    const seq = ++this.#seq;
    this.sitesChecking = true;
    try {
      await settingsApi.checkSites(this.sitesText);
      if (seq === this.#seq) this.sitesMarker = null;
      return true;
    } catch (e) {
      if (seq === this.#seq) this.sitesMarker = markerOf(toEnvelope(e));
      return false;
    } finally {
      if (seq === this.#seq) this.sitesChecking = false;
    }
  }

  async saveSites(): Promise<boolean> {
    clearTimeout(this.#timer);
    ++this.#seq;
    this.sitesSaving = true;
    try {
      appState.applySettings(await settingsApi.saveSites(this.sitesText));
      this.sitesMarker = null;
      this.sitesDirty = false;
      this.sitesText = sitesToText(appState.settings?.sites);
      toasts.success('Sites saved');
      return true;
    } catch (e) {
      this.sitesMarker = markerOf(toEnvelope(e));
      return false;
    } finally {
      this.sitesSaving = false;
    }
  }

  revertSites(): void {
    clearTimeout(this.#timer);
    ++this.#seq;
    this.sitesText = sitesToText(appState.settings?.sites);
    this.sitesDirty = false;
    this.sitesMarker = null;
  }

  async loadClients(): Promise<void> {
    try {
      this.clients = (await gatewayApi.clients()) ?? [];
      this.clientsProblem = null;
    } catch (e) {
      this.clientsProblem = toEnvelope(e);
    }
  }

  async loadMCPConfigs(): Promise<void> {
    try {
      this.mcpConfigs = (await gatewayApi.mcpConfigs()) ?? [];
      this.mcpConfigsProblem = null;
    } catch (e) {
      this.mcpConfigsProblem = toEnvelope(e);
    }
  }

  async newPairingCode(): Promise<void> {
    try {
      this.pairing = await gatewayApi.pairingCode();
    } catch (e) {
      toasts.error(e);
    }
    // A code is usually asked for right after the last one was used.
    await this.loadClients();
  }

  async revoke(id: string): Promise<void> {
    try {
      await gatewayApi.revoke(id);
      await this.loadClients();
    } catch (e) {
      toasts.error(e);
    }
  }

  async setAutoApprove(id: string, on: boolean): Promise<void> {
    try {
      await gatewayApi.setAutoApprove(id, on);
    } catch (e) {
      toasts.error(e);
    }
    await this.loadClients();
  }

  async grantExisting(id: string, on: boolean): Promise<void> {
    try {
      await gatewayApi.grantExisting(id, on);
    } catch (e) {
      toasts.error(e);
    }
    await this.loadClients();
  }
}

/** markerOf places any sites refusal; one without a place goes at the top. */
function markerOf(env: Envelope): SitesMarker {
  return sitesMarker(env) ?? { line: 1, column: 1, entry: null, message: env.message };
}
