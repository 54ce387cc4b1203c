// The toast stack. Errors stay until dismissed (they carry what to do);
// confirmations fade on their own.

import { describe, toEnvelope } from '../envelope';
import { pushToast, type Toast } from '../toastlist';

const CONFIRMATION_MS = 4500;

export class Toasts {
  items = $state<Toast[]>([]);
  #next = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  /** error shows any failure as an envelope toast and returns its id. */
  error(err: unknown): number {
    const env = toEnvelope(err);
    return this.#push({ id: this.#next++, kind: 'error', title: describe(env).title, message: env.message, envelope: env, count: 1 });
  }

  /** success shows a confirmation that dismisses itself. */
  success(title: string, message = ''): number {
    const id = this.#push({ id: this.#next++, kind: 'success', title, message, count: 1 });
    this.#timers.set(id, setTimeout(() => this.dismiss(id), CONFIRMATION_MS));
    return id;
  }

  dismiss(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.items = this.items.filter((t) => t.id !== id);
  }

  /** dismissEnvelope removes toasts showing this envelope (code and message). */
  dismissEnvelope(code: string, message: string): void {
    for (const t of this.items) {
      if (t.envelope?.code === code && t.envelope.message === message) this.dismiss(t.id);
    }
  }

  #push(t: Toast): number {
    this.items = pushToast(this.items, t);
    const shown = this.items.find((x) => x.id === t.id) ?? this.items[this.items.length - 1];
    return shown.id;
  }
}

export const toasts = new Toasts();
