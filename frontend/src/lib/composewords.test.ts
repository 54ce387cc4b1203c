import { describe, expect, it } from 'vitest';
import { sendLabel } from './composewords';

describe('sendLabel', () => {
  it('says one site in the singular and the rest in the plural', () => {
    expect(sendLabel(1)).toBe('Send to 1 site');
    expect(sendLabel(0)).toBe('Send to 0 sites');
    expect(sendLabel(3)).toBe('Send to 3 sites');
  });
});
