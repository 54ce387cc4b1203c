// The quick prompt: which layout the window shows, the box's site and text,
// sending (Quick.Send: Ferry's browser, when it must start, starts
// minimized), and the answer streaming in the box below the prompt.

import * as quickApi from '../api/quick';
import * as runsApi from '../api/runs';
import type { RunEvent } from '../api/runevents';
import { toEnvelope, type Envelope } from '../envelope';
import { quickFiles } from './attachments.svelte';
import { applyEvent, fromInfo, type LiveRun } from '../liverun';

export interface QuickDeps {
  start: typeof quickApi.send;
  sites: typeof runsApi.sites;
  close: typeof quickApi.close;
  grow: typeof quickApi.grow;
  get: typeof runsApi.get;
  retryOnTab: typeof runsApi.retryOnTab;
  showRun: typeof quickApi.showRun;
}

const defaults: QuickDeps = {
  start: quickApi.send,
  sites: runsApi.sites,
  close: quickApi.close,
  grow: quickApi.grow,
  get: runsApi.get,
  retryOnTab: runsApi.retryOnTab,
  showRun: quickApi.showRun,
};

export class QuickState {
  /** active is true while the window shows the quick prompt layout. */
  active = $state(false);
  site = $state('');
  prompt = $state('');
  sites = $state.raw<runsApi.SiteInfo[]>([]);
  sending = $state(false);
  problem = $state.raw<Envelope | null>(null);
  /** run is the run the box sent last, its answer streaming in below the prompt. */
  run = $state.raw<LiveRun | null>(null);
  /** sent is the prompt of run, shown above its answer. */
  sent = $state('');
  /** Bumped on every open, so the box can take the focus again. */
  opened = $state(0);
  #deps: QuickDeps;

  constructor(deps: Partial<QuickDeps> = {}) {
    this.#deps = { ...defaults, ...deps };
  }

  /** open shows the layout (the window is already compact: the Go side did that), empty of an earlier answer. */
  open(o: quickApi.QuickOpened | null): void {
    this.active = true;
    this.problem = null;
    this.run = null;
    this.sent = '';
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

  /** leave asks the Go side to put the window back as it was (or hide it); Esc. */
  async leave(): Promise<void> {
    this.active = false;
    try {
      await this.#deps.close();
    } catch {
      // The window is full-size again on our side; nothing to tell the user.
    }
  }

  /**
   * send starts the run and shows it in the box, which grows to hold the
   * answer; a refusal stays in the box with the text kept.
   */
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
      const run = fromInfo(await this.#deps.start({ kind: 'ask', site: this.site, prompt, files: quickFiles.paths } as runsApi.RunSpec));
      if (!run.site) run.site = this.site;
      this.run = run;
      this.sent = prompt;
      this.prompt = '';
      quickFiles.clear();
      this.problem = null;
      void this.#deps.grow().catch(() => {});
      return true;
    } catch (e) {
      this.problem = toEnvelope(e);
      return false;
    } finally {
      this.sending = false;
    }
  }

  /** onEvent applies a run:event to the box's run; its end is read back whole. */
  onEvent(ev: RunEvent): void {
    const run = this.run;
    if (!run || ev.jobId !== run.id) return;
    this.run = applyEvent(run, ev);
    if (ev.kind === 'ended') void this.refresh(run.id);
  }

  async refresh(id: string): Promise<void> {
    try {
      const info = await this.#deps.get(id);
      if (this.run?.id === id) this.run = fromInfo(info, this.run);
    } catch (e) {
      this.problem = toEnvelope(e);
    }
  }

  /** pickTab sends the run again on the tab picked after tab_ambiguous. */
  async pickTab(targetId: string): Promise<void> {
    const run = this.run;
    if (!run) return;
    try {
      const next = fromInfo(await this.#deps.retryOnTab(run.id, targetId));
      if (!next.site) next.site = run.site;
      this.run = next;
    } catch (e) {
      this.problem = toEnvelope(e);
    }
  }

  /** openInFerry leaves the box for the full window, showing the run (the caller puts it in Compose). */
  async openInFerry(): Promise<LiveRun | null> {
    const run = this.run;
    this.active = false;
    try {
      await this.#deps.showRun('');
    } catch {
      // The window is full on our side; the run is shown there.
    }
    return run;
  }
}

export const quick = new QuickState();
