// The approvals agents wait for: kept in step with the hub's events, with the
// user's Approve / Reject in flight per job.

import * as api from '../api/gateway';
import { toEnvelope, type Envelope } from '../envelope';

export interface ApprovalsApi {
  approvals: typeof api.approvals;
  approve: typeof api.approve;
  reject: typeof api.reject;
}

export class ApprovalsState {
  items = $state.raw<api.Approval[]>([]);
  /** Job ids with a decision on its way. */
  busy = $state.raw<string[]>([]);
  problem = $state.raw<Envelope | null>(null);
  #api: ApprovalsApi;

  constructor(a: ApprovalsApi = api) {
    this.#api = a;
  }

  /** load asks the gateway for the waiting jobs (at start, and after a missed event). */
  async load(): Promise<void> {
    try {
      this.items = (await this.#api.approvals()) ?? [];
      this.problem = null;
    } catch (e) {
      // No gateway (the core did not open): nothing can wait for approval.
      this.items = [];
      this.problem = toEnvelope(e);
    }
  }

  /** apply follows one hub event: a new request is added, a decided one removed. */
  apply(ev: api.HubEvent): void {
    if (ev.type === 'approval.requested') {
      const ap = ev.data as api.Approval | undefined;
      if (!ap?.jobId || this.items.some((a) => a.jobId === ap.jobId)) return;
      this.items = [...this.items, ap];
    } else if (ev.type === 'approval.resolved') {
      const id = (ev.data as { jobId?: string } | undefined)?.jobId ?? ev.jobId;
      this.#drop(id);
    }
  }

  /** approve lets the job run; on success it leaves the list. */
  async approve(jobId: string): Promise<void> {
    await this.#decide(jobId, () => this.#api.approve(jobId));
  }

  /** reject ends the job without running it. */
  async reject(jobId: string, reason = ''): Promise<void> {
    await this.#decide(jobId, () => this.#api.reject(jobId, reason));
  }

  async #decide(jobId: string, fn: () => Promise<unknown>): Promise<void> {
    if (this.busy.includes(jobId)) return;
    this.busy = [...this.busy, jobId];
    try {
      await fn();
      this.#drop(jobId);
      this.problem = null;
    } catch (e) {
      const env = toEnvelope(e);
      // Decided elsewhere (the CLI, or the client cancelled): it no longer waits.
      if (env.code === 'hub_not_found') this.#drop(jobId);
      this.problem = env;
    } finally {
      this.busy = this.busy.filter((id) => id !== jobId);
    }
  }

  #drop(jobId: string | undefined): void {
    if (jobId) this.items = this.items.filter((a) => a.jobId !== jobId);
  }
}

export const approvals = new ApprovalsState();
