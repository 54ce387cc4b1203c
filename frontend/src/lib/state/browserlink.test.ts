import { describe, expect, it } from 'vitest';
import { health } from './browserlink.svelte';

describe('the sidebar health', () => {
  it('says ready while the browser is connected or not started', () => {
    expect(health(false, 'connected')).toBe('ready');
    expect(health(false, 'not_started')).toBe('ready');
    expect(health(false, undefined)).toBe('ready');
  });
  it('says the browser is disconnected, not ready, while it is', () => {
    expect(health(false, 'disconnected')).toBe('disconnected');
  });
  it('puts a problem of the data directory first', () => {
    expect(health(true, 'disconnected')).toBe('attention');
  });
});
