// The quick prompt: which layout the window shows, the box's site and text,
// and sending through Runs.Start.

import * as quickApi from '../api/quick';
import * as runsApi from '../api/runs';
import { toEnvelope, type Envelope } from '../envelope';
import { quickFiles } from './attachments.svelte';

export interface QuickDeps {
  start: typeof runsApi.start;
  sites: typeof runsApi.sites;
  close: typeof quickApi.close;
}

const defaults: QuickDeps = { start: runsApi.start, sites: runsApi.sites, close: quickApi.close };

export class QuickState {
  /** active is true while the window shows the quick prompt layout. */
  active = $state(false);
  site = $state('');
  prompt = $state('');
  sites = $state.raw<runsApi.SiteInfo[]>([]);
  sending = $state(false);
  problem = $state.raw<Envelope | null>(null);
  /** Bumped on every open, so the box can take the focus again. */
  opened = $state(0);
  #deps: QuickDeps;

  constructor(deps: QuickDeps = defaults) {
    this.#deps = deps;
  }

  /** open shows the layout (the window is already compact: the Go side did that). */
  open(o: quickApi.QuickOpened | null): void {
    this.active = true;
    this.problem = null;
    if (!this.site && o?.site) this.site = o.site;
    this.opened++;
    if (this.sites.length === 0) void this.loadSites();
  }

  async loadSites(): Promise<void> {
    try {
      this.sites = (await this.#deps.sites()) ?? [];
      if (this.sites.length && !this.sites.some((s) => s.id === this.site)) this.site = this.sites[0].id;
    } catch (e) {
      this.problem = toEnvelope(e);
    }
  }

  /** closed is the Go side telling us the window is full again. */
  closed(): void {
    this.active = false;
  }

  /** leave asks the Go side to restore (or hide) the window; Esc. */
  async leave(): Promise<void> {
    this.active = false;
    try {
      await this.#deps.close();
    } catch {
      // The window is full-size again on our side; nothing to tell the user.
    }
  }

  /** send starts the run and leaves; a refusal stays in the box with the text kept. */
  async send(): Promise<boolean> {
    const prompt = this.prompt.trim();
    if (!prompt || this.sending) return false;
    if (!this.site) {
      this.problem = { stage: 'input', code: 'bad_input', message: 'choose a site to send to', retryable: false, evidence: {} };
      return false;
    }
    this.sending = true;
    try {
      if (!(await quickFiles.verify())) return false;
      await this.#deps.start({ kind: 'ask', site: this.site, prompt, files: quickFiles.paths } as runsApi.RunSpec);
      this.prompt = '';
      quickFiles.clear();
      this.problem = null;
      await this.leave();
      return true;
    } catch (e) {
      this.problem = toEnvelope(e);
      return false;
    } finally {
      this.sending = false;
    }
  }
}

export const quick = new QuickState();
