// Whether this window is the demo, for its banner, and the actions that
// start and leave it.

import * as systemApi from '../api/system';
import { toasts } from './toasts.svelte';

export class DemoState {
  /** True in `ferry-desktop --demo`. */
  active = $state(false);
  /** True from a click on "Try the demo" or "Leave the demo" until the backend answered. */
  busy = $state(false);

  async load(): Promise<void> {
    try {
      this.active = (await systemApi.demo()).active;
    } catch {
      this.active = false;
    }
  }

  /** start opens the demo; this window hides until the demo ends. */
  async start(): Promise<void> {
    this.busy = true;
    try {
      await systemApi.startDemo();
    } catch (e) {
      toasts.error(e);
    } finally {
      this.busy = false;
    }
  }

  /** leave closes the demo window and removes what it made. */
  async leave(): Promise<void> {
    this.busy = true;
    try {
      await systemApi.leaveDemo();
    } catch (e) {
      this.busy = false;
      toasts.error(e);
    }
  }
}

export const demo = new DemoState();
