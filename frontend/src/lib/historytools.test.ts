import { describe, expect, it } from 'vitest';
import { NO_TOOL, toolLabel, toolsOf } from './historytools';

describe('the History tool filter', () => {
  it('offers every site tool once, sorted', () => {
    expect(toolsOf([{ tools: ['web-search', 'image', 'deep-research'] }, {}, { tools: ['image'] }])).toEqual(['deep-research', 'image', 'web-search']);
    expect(toolsOf([])).toEqual([]);
  });
  it('reads a tool in words', () => {
    expect(toolLabel('web-search')).toBe('Web search');
    expect(toolLabel('deep-research')).toBe('Deep research');
    expect(toolLabel('image')).toBe('Image');
    expect(toolLabel('')).toBe('');
  });
  it('names the runs without a tool as the backend does', () => {
    expect(NO_TOOL).toBe('none');
  });
});
