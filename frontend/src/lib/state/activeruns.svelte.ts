// Every run going on now, whoever asked for it: this app, the CLI through
// the gateway, or a paired agent. The list starts from Runs.Active and
// follows the run:event news of every job; a run that ended leaves it for
// a short "just ended" list whose entries open in History.

import * as api from '../api/runs';
import type { RunEvent } from '../api/runevents';
import { applyEvent, fromInfo, type LiveRun } from '../liverun';
import { toasts } from './toasts.svelte';

export type ActiveRunsApi = Pick<typeof api, 'active' | 'get' | 'cancel'>;

/** ENDED_KEPT is how many just-ended runs stay listed. */
export const ENDED_KEPT = 5;

export class ActiveRuns {
  /** runs are the runs going on, oldest first. */
  runs = $state<LiveRun[]>([]);
  /** ended are the runs that ended while listed, newest first. */
  ended = $state<LiveRun[]>([]);
  /** open is the run whose answer so far is shown ("" for none). */
  open = $state('');
  /** cancelling holds the runs whose Cancel was pressed and that have not stopped yet. */
  cancelling = $state<Record<string, boolean>>({});

  #api: ActiveRunsApi;
  // Runs heard of through an event and being read: their later events wait here.
  #reading = new Map<string, RunEvent[]>();

  constructor(a: ActiveRunsApi = api) {
    this.#api = a;
  }

  /** load reads the runs going on now (their news then comes through onEvent). */
  async load(): Promise<void> {
    try {
      const infos = await this.#api.active();
      const known = new Map(this.runs.map((r) => [r.id, r]));
      this.runs = infos.filter((i) => !i.ended).map((i) => fromInfo(i, known.get(i.id)));
    } catch (e) {
      toasts.error(e);
    }
  }

  /** onEvent applies a run:event of any job; an unknown running job is read and listed. */
  onEvent(ev: RunEvent): void {
    const waiting = this.#reading.get(ev.jobId);
    if (waiting) {
      waiting.push(ev);
      return;
    }
    const i = this.runs.findIndex((r) => r.id === ev.jobId);
    if (i < 0) {
      if (ev.kind !== 'ended' && !this.ended.some((r) => r.id === ev.jobId)) void this.#read(ev);
      return;
    }
    const next = applyEvent(this.runs[i], ev);
    if (ev.kind === 'ended') {
      this.runs.splice(i, 1);
      this.#ended(next);
      void this.#final(next.id);
      return;
    }
    this.runs[i] = next;
  }

  async #read(first: RunEvent): Promise<void> {
    const queue = [first];
    this.#reading.set(first.jobId, queue);
    try {
      const info = await this.#api.get(first.jobId);
      this.#reading.delete(first.jobId);
      if (info.ended || this.runs.some((r) => r.id === info.id)) return;
      this.runs.push(fromInfo(info));
      for (const ev of queue) this.onEvent(ev);
    } catch {
      // A job that cannot be read is left out; its next news tries again.
      this.#reading.delete(first.jobId);
    }
  }

  #ended(run: LiveRun): void {
    this.ended = [run, ...this.ended.filter((r) => r.id !== run.id)].slice(0, ENDED_KEPT);
    if (this.open === run.id) this.open = '';
  }

  // The ended run's record: its final state, session and error.
  async #final(id: string): Promise<void> {
    try {
      const info = await this.#api.get(id);
      const i = this.ended.findIndex((r) => r.id === id);
      if (i >= 0) this.ended[i] = fromInfo(info, this.ended[i]);
    } catch {
      // The ended entry keeps what the events said.
    }
  }

  toggle(id: string): void {
    this.open = this.open === id ? '' : id;
  }

  /** cancel stops a run, whoever asked for it; the run reads as cancelling
   *  until it has stopped (the site stops writing first), and a second press
   *  meanwhile asks nothing more. */
  async cancel(id: string): Promise<void> {
    if (this.cancelling[id]) return;
    this.cancelling[id] = true;
    try {
      const info = await this.#api.cancel(id);
      const i = this.runs.findIndex((r) => r.id === id);
      if (i >= 0 && info.ended) {
        const run = fromInfo(info, this.runs[i]);
        this.runs.splice(i, 1);
        this.#ended(run);
      } else if (i >= 0) {
        this.runs[i] = fromInfo(info, this.runs[i]);
      }
    } catch (e) {
      toasts.error(e);
    } finally {
      delete this.cancelling[id];
    }
  }
}

export const activeRuns = new ActiveRuns();
