// call runs one bound Go method and turns its rejection into an EnvelopeError,
// so every caller in the UI catches the same thing.

import { EnvelopeError, toEnvelope } from '../envelope';

function backendConnected(): boolean {
  return typeof window !== 'undefined' && typeof (window as unknown as { go?: unknown }).go === 'object';
}

/** call awaits fn and rethrows any failure as an EnvelopeError. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  if (!backendConnected()) {
    throw new EnvelopeError({
      stage: 'internal',
      code: 'internal',
      message: 'the page is not connected to the Ferry backend',
      retryHint: 'open Ferry with `make run` (the page needs the app, not a plain browser)',
      retryable: false,
      evidence: {},
    });
  }
  try {
    return await fn();
  } catch (e) {
    throw new EnvelopeError(toEnvelope(e));
  }
}
