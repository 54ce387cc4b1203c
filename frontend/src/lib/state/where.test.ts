import { describe, expect, it, vi } from 'vitest';
import { OTHER, WhereState } from './where.svelte';

const listed = [
  { name: 'Harbour notes', address: 'https://chatgpt.com/g/g-p-1-harbour-notes/project' },
  { name: 'Twice', address: 'https://chatgpt.com/g/g-p-2/project' },
  { name: 'Twice', address: 'https://chatgpt.com/g/g-p-3/project' },
];

describe('WhereState', () => {
  it('lists the projects on demand and sends a listed one by its name unless another shares it', async () => {
    const list = vi.fn(async () => listed);
    const w = new WhereState(list);
    expect(list).not.toHaveBeenCalled();
    await w.load('chatgpt');
    expect(list).toHaveBeenCalledWith('chatgpt');
    expect(w.status).toBe('loaded');
    expect(w.projects.map((p) => w.projectRef(p))).toEqual(['Harbour notes', 'https://chatgpt.com/g/g-p-2/project', 'https://chatgpt.com/g/g-p-3/project']);
    w.choice = 'Harbour notes';
    w.archiveAfter = true;
    expect(w.fields(true, true)).toEqual({ temporary: false, archiveAfter: true, project: 'Harbour notes', gpt: '' });
  });

  it('keeps the failure of a listing for the view, and a retry clears it', async () => {
    const list = vi.fn().mockRejectedValueOnce({ code: 'login_required', message: 'ChatGPT is logged out', stage: 'session', retryable: false }).mockResolvedValueOnce(listed);
    const w = new WhereState(list);
    await w.load('chatgpt');
    expect(w.status).toBe('error');
    expect(w.problem?.code).toBe('login_required');
    await w.load('chatgpt');
    expect(w.status).toBe('loaded');
    expect(w.problem).toBeNull();
  });

  it('sends a typed project or GPT address as the kind chosen', () => {
    const w = new WhereState(vi.fn());
    w.choice = OTHER;
    w.text = ' https://chatgpt.com/g/g-abc-guide ';
    w.kind = 'gpt';
    expect(w.fields(true, true)).toEqual({ temporary: false, archiveAfter: false, project: '', gpt: 'https://chatgpt.com/g/g-abc-guide' });
    w.kind = 'project';
    expect(w.fields(true, true).project).toBe('https://chatgpt.com/g/g-abc-guide');
  });

  it('sends a temporary chat alone, and nothing where the site offers none', () => {
    const w = new WhereState(vi.fn());
    w.temporary = true;
    w.archiveAfter = true;
    w.choice = 'Harbour notes';
    expect(w.fields(true, true)).toEqual({ temporary: true, archiveAfter: false, project: '', gpt: '' });
    expect(w.fields(false, false)).toEqual({ temporary: false, archiveAfter: false, project: '', gpt: '' });
    expect(WhereState.label(w.fields(true, true))).toBe('temporary chat');
  });

  it('forgets the choices and a listing still on its way when the site changes', async () => {
    let release: (v: typeof listed) => void = () => {};
    const w = new WhereState(() => new Promise((r) => (release = r)));
    const loading = w.load('chatgpt');
    w.temporary = true;
    w.reset();
    release(listed);
    await loading;
    expect(w.projects).toEqual([]);
    expect(w.status).toBe('idle');
    expect(w.temporary).toBe(false);
  });
});
