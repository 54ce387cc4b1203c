import { describe, expect, it, vi } from 'vitest';
import { ComposeState, type RunsApi } from './compose.svelte';
import type { RunInfo, RunSpec } from '../api/runs';
import type { TabState } from '../api/tabs';

function info(id: string, site: string, extra: Partial<RunInfo> = {}): RunInfo {
  return { id, kind: 'ask', state: 'starting', ended: false, site, prompt: 'p', timeline: [], ...extra } as unknown as RunInfo;
}

function fakeApi(over: Partial<RunsApi> = {}): RunsApi {
  return {
    start: vi.fn(async (s: RunSpec) => info('job-1', s.site)),
    broadcast: vi.fn(async (b: { sites: string[] }) => b.sites.map((s, i) => info('job-b' + i, s))),
    cancel: vi.fn(async (id: string) => info(id, 'chatgpt', { state: 'cancelled', ended: true })),
    retry: vi.fn(async () => info('job-2', 'chatgpt')),
    get: vi.fn(async (id: string) => info(id, 'chatgpt', { state: 'done', ended: true, session: { id: 's1', answer: 'Final answer' } } as Partial<RunInfo>)),
    sites: vi.fn(async () => [
      { id: 'chatgpt', name: 'ChatGPT', address: 'https://chatgpt.com/', code: true, builtin: true, efforts: ['instant', 'high', 'pro'], tools: ['deep-research', 'image', 'web-search'],
        temporary: true, places: true },
      { id: 'claude', name: 'Claude', address: 'https://claude.ai/', code: false, builtin: true },
    ]),
    models: vi.fn(async () => [{ alias: 'default', features: ['chat'] }, { alias: 'gpt-5', features: ['chat'] }]),
    templates: vi.fn(async () => [{ name: 'fix-bug', body: 'Fix {{component}}', variables: ['component'], builtIn: true }] as never),
    renderTemplate: vi.fn(async (_n: string, vars: Record<string, string>) => `Fix ${vars.component}`),
    ...over,
  } as RunsApi;
}

describe('ComposeState', () => {
  it('knows when filling a template would overwrite a typed draft', async () => {
    const c = new ComposeState(fakeApi(), { list: async () => [] }, { saved: () => undefined, save: async () => {} });
    await c.load();
    c.template = 'fix-bug';
    c.vars = { component: 'the parser' };
    expect(c.fillWouldReplace).toBe(false); // an empty editor
    await c.applyTemplate();
    expect(c.fillWouldReplace).toBe(false); // the rendering itself
    c.prompt += ' and keep the tests';
    expect(c.fillWouldReplace).toBe(true); // the user's own words now
  });
  it('offers the broadcast sites chosen before a restart, and keeps each change', async () => {
    const saved: string[][] = [];
    const prefs = { saved: () => ['claude', 'gone-site'], save: vi.fn(async (s: string[]) => saved.push(s)) };
    const c = new ComposeState(fakeApi(), { list: async () => [] }, prefs);
    await c.load();
    expect(c.broadcastSites).toEqual(['claude']); // a site the registry lost is dropped
    c.toggleBroadcastSite('chatgpt');
    c.toggleBroadcastSite('claude');
    expect(saved).toEqual([['claude', 'chatgpt'], ['chatgpt']]);
  });
  it('empties the prompt after a send, so Ctrl+Enter twice sends once', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.prompt = 'once';
    const first = c.send();
    const second = c.send(); // while the first is on its way
    expect(await first).toBe(true);
    expect(await second).toBe(false);
    expect(await c.send()).toBe(false); // after it, the prompt is empty
    expect(a.start).toHaveBeenCalledTimes(1);
    expect(c.prompt).toBe('');
  });

  it('keeps the prompt when the send is refused', async () => {
    const a = fakeApi({ start: vi.fn(async () => Promise.reject({ code: 'bad_input', message: 'no', stage: 'input', retryable: false })) });
    const c = new ComposeState(a);
    await c.load();
    c.prompt = 'keep me';
    expect(await c.send()).toBe(false);
    expect(c.prompt).toBe('keep me');
  });

  it('names the site of a run to a tab from the start, and where it went', async () => {
    const a = fakeApi({ start: vi.fn(async () => ({ id: 'job-9', kind: 'ask', state: 'starting', ended: false, prompt: 'x' }) as unknown as RunInfo) });
    const c = new ComposeState(a);
    await c.load();
    await c.bindTab({ targetId: 'T1', site: 'claude', title: 'Tax questions', url: '', state: 'ready' } as TabState);
    c.prompt = 'x';
    await c.send();
    expect(c.runs[0].site).toBe('claude');
    expect(c.where['job-9']).toBe('tab Tax questions');
  });

  it('follows up a finished run below it, in its conversation', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.prompt = 'first';
    await c.send();
    c.runs[0] = { ...c.runs[0], session: 'sess-1', state: 'done', ended: true };
    const firstId = c.runs[0].id;
    (a.start as ReturnType<typeof vi.fn>).mockResolvedValueOnce(info('job-7', 'chatgpt'));
    expect(await c.followUpRun(firstId, '  and then?  ')).toBe(true);
    expect((a.start as ReturnType<typeof vi.fn>).mock.calls[1][0]).toMatchObject({ kind: 'ask', followUp: 'sess-1', site: '', tabId: '', prompt: 'and then?' });
    expect(c.earlier.map((r) => r.id)).toEqual([firstId]);
    expect(c.runs.map((r) => r.id)).toEqual(['job-7']);
    expect(c.where['job-7']).toBe('follow-up');
  });

  it('sends the chosen effort of a site with tiers, and none to a site without', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    expect(c.efforts).toEqual(['instant', 'high', 'pro']);
    c.prompt = 'think hard';
    c.effort = 'pro';
    expect(await c.send()).toBe(true);
    expect(a.start).toHaveBeenCalledWith(expect.objectContaining({ site: 'chatgpt', effort: 'pro', prompt: 'think hard' }));
    await c.setSite('claude');
    expect(c.efforts).toEqual([]);
    expect(c.effort).toBe('');
    c.prompt = 'plain';
    await c.send();
    expect((a.start as ReturnType<typeof vi.fn>).mock.calls[1][0].effort).toBe('');
  });

  it('sends the chosen tool with an ask, and none with code or to a site without tools', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    expect(c.tools).toEqual(['deep-research', 'image', 'web-search']);
    c.prompt = 'what is new';
    c.tool = 'web-search';
    expect(await c.send()).toBe(true);
    expect(a.start).toHaveBeenCalledWith(expect.objectContaining({ site: 'chatgpt', tool: 'web-search', prompt: 'what is new' }));
    c.kind = 'code';
    expect(c.spec().tool).toBe('');
    c.kind = 'ask';
    await c.setSite('claude');
    expect(c.tools).toEqual([]);
    expect(c.tool).toBe('');
    expect(c.spec().tool).toBe('');
  });

  it('sends where the chat goes with an ask to a site that offers it, and nothing elsewhere', async () => {
    const a = fakeApi({ projects: vi.fn(async () => [{ name: 'Harbour notes', address: 'https://chatgpt.com/g/g-p-1/project' }]) });
    const c = new ComposeState(a);
    await c.load();
    expect(c.placeChoice).toEqual({ temporary: true, places: true });
    c.place.temporary = true;
    c.prompt = 'off the record';
    expect(await c.send()).toBe(true);
    expect(a.start).toHaveBeenLastCalledWith(expect.objectContaining({ site: 'chatgpt', temporary: true, archiveAfter: false, project: '', gpt: '' }));
    expect(Object.values(c.where)).toContain('temporary chat');
    c.place.temporary = false;
    await c.place.load('chatgpt');
    c.place.choice = c.place.projectRef(c.place.projects[0]);
    c.place.archiveAfter = true;
    c.prompt = 'file it';
    await c.send();
    expect(a.start).toHaveBeenLastCalledWith(expect.objectContaining({ temporary: false, archiveAfter: true, project: 'Harbour notes' }));
    c.kind = 'code';
    expect(c.placeChoice).toEqual({ temporary: false, places: false });
    expect(c.spec()).toMatchObject({ temporary: false, archiveAfter: false, project: '' });
    c.kind = 'ask';
    await c.setSite('claude');
    expect(c.placeChoice).toEqual({ temporary: false, places: false });
    expect(c.place.projects).toEqual([]);
    expect(c.spec()).toMatchObject({ temporary: false, archiveAfter: false, project: '', gpt: '' });
  });

  it('sends a run again on the tab picked after tab_ambiguous', async () => {
    const a = fakeApi({ retryOnTab: vi.fn(async () => info('job-3', 'chatgpt')) });
    const c = new ComposeState(a);
    await c.load();
    c.prompt = 'which tab?';
    await c.send();
    const id = c.runs[0].id;
    await c.retryOnTab(id, 'T2');
    expect(a.retryOnTab).toHaveBeenCalledWith(id, 'T2');
    expect(c.runs.map((r) => r.id)).toEqual(['job-3']);
  });

  it('sends to the site with its model, leaving "default" to the site', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.prompt = 'hello';
    c.model = 'gpt-5';
    expect(await c.send()).toBe(true);
    expect(a.start).toHaveBeenCalledWith(expect.objectContaining({ kind: 'ask', site: 'chatgpt', tabId: '', model: 'gpt-5', prompt: 'hello' }));
    c.model = 'default';
    c.prompt = 'hello'; // a successful send empties the prompt
    await c.send();
    expect((a.start as ReturnType<typeof vi.fn>).mock.calls[1][0].model).toBe('');
    expect(c.runs).toHaveLength(1);
  });

  it('sends to exactly the bound tab, never with a new chat', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.newChat = true;
    await c.bindTab({ targetId: 'T1', site: 'chatgpt', title: '', url: '', state: 'ready' } as TabState);
    c.prompt = 'x';
    await c.send();
    expect(a.start).toHaveBeenCalledWith(expect.objectContaining({ site: '', tabId: 'T1', newChat: false }));
  });

  it('follows up a run as an ask in its conversation, on no site or tab, until unbound', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.kind = 'code';
    c.newChat = true;
    await c.follow({ id: 'run-1', site: 'claude', siteName: 'Claude', title: 'Tax questions' });
    expect(c.codeAllowed).toBe(false);
    expect(c.codeUnavailable).toBe('not for follow-ups: a follow-up asks in the same conversation');
    expect(a.models).toHaveBeenLastCalledWith('claude');
    c.prompt = 'and then?';
    await c.send();
    expect(a.start).toHaveBeenCalledWith(expect.objectContaining({ kind: 'ask', followUp: 'run-1', site: '', tabId: '', newChat: false }));
    await c.unbindTab();
    c.prompt = 'and then?'; // a successful send empties the prompt
    await c.send();
    expect((a.start as ReturnType<typeof vi.fn>).mock.calls[1][0]).toMatchObject({ followUp: '', site: 'chatgpt' });
  });

  it('says why code mode is off in words that fit the case: a follow-up to ChatGPT is not "a site without zips"', async () => {
    const c = new ComposeState(fakeApi());
    await c.load();
    expect(c.codeUnavailable).toBe('');
    await c.follow({ id: 'run-1', site: 'chatgpt', siteName: 'ChatGPT', title: 'Ferries' });
    expect(c.codeUnavailable).not.toContain('sandbox zips');
    await c.unbindTab();
    await c.setSite('claude');
    expect(c.codeUnavailable).toBe('Claude produces no sandbox zips');
    await c.setSite('chatgpt');
    c.broadcast = true;
    expect(c.codeUnavailable).toBe('not for broadcasts');
  });

  it('sends a plain prompt where the run on screen went: its session goes with the send, never with a tab or another site', async () => {
    const a = fakeApi({ start: vi.fn(async (s: RunSpec) => info('job-' + s.prompt, s.site || 'chatgpt', { session: { id: 'sess-' + s.prompt } } as Partial<RunInfo>)) });
    const c = new ComposeState(a);
    await c.load();
    c.newChat = true;
    c.prompt = 'one';
    await c.send();
    c.newChat = false;
    c.prompt = 'two';
    await c.send();
    const calls = (a.start as ReturnType<typeof vi.fn>).mock.calls.map((x) => x[0] as RunSpec);
    expect(calls[0]).toMatchObject({ newChat: true, shownRun: '' });
    expect(calls[1]).toMatchObject({ site: 'chatgpt', newChat: false, shownRun: 'sess-one' });
    await c.setSite('claude');
    c.prompt = 'three';
    await c.send();
    expect((a.start as ReturnType<typeof vi.fn>).mock.calls[2][0]).toMatchObject({ site: 'claude', shownRun: '' });
  });

  it('sends nothing without a prompt', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.prompt = '   ';
    expect(await c.send()).toBe(false);
    expect(a.start).not.toHaveBeenCalled();
  });

  it('carries the code-mode options only in code mode', async () => {
    const c = new ComposeState(fakeApi());
    await c.load();
    c.prompt = 'build';
    c.zips = 'several';
    c.newChat = true;
    c.repoRoot = ' /src/ferry ';
    c.paths = 'backend/core, app\n\nfrontend/src';
    expect(c.spec()).toMatchObject({ kind: 'ask', newChat: true, zips: '', repoRoot: '', sourcePaths: [] });
    c.kind = 'code';
    c.allowInline = true;
    expect(c.spec()).toMatchObject({ kind: 'code', newChat: false, zips: 'several', allowInline: true, repoRoot: '/src/ferry',
      sourcePaths: ['backend/core', 'app', 'frontend/src'] });
    expect(c.codeAllowed).toBe(true);
    await c.setSite('claude');
    expect(c.codeAllowed).toBe(false);
  });

  it('broadcasts to the ticked sites with their own models, one column each', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.broadcast = true;
    c.prompt = 'compare';
    c.toggleBroadcastSite('chatgpt');
    c.toggleBroadcastSite('claude');
    c.broadcastModels = { chatgpt: 'gpt-5', claude: 'default' };
    await c.send();
    expect(a.broadcast).toHaveBeenCalledWith({ prompt: 'compare', template: '', vars: {}, sites: ['chatgpt', 'claude'], models: { chatgpt: 'gpt-5' }, newChat: false, files: [] });
    expect(c.runs.map((r) => r.site)).toEqual(['chatgpt', 'claude']);
  });

  it('streams partial text into the run and reads it back whole when it ends', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.prompt = 'hi';
    await c.send();
    c.onEvent({ jobId: 'job-1', kind: 'partial', text: 'Fin', at: '' });
    expect(c.runs[0].text).toBe('Fin');
    c.onEvent({ jobId: 'job-1', kind: 'ended', state: 'done', at: '' });
    await vi.waitFor(() => expect(c.runs[0].text).toBe('Final answer'));
    expect(c.runs[0].partials).toBe(1);
    expect(a.get).toHaveBeenCalledWith('job-1');
  });

  it('fills the prompt from a template and its variables', async () => {
    const c = new ComposeState(fakeApi());
    await c.load();
    c.chooseTemplate('fix-bug');
    expect(Object.keys(c.vars)).toEqual(['component']);
    c.vars.component = 'the parser';
    expect(await c.applyTemplate()).toBe(true);
    expect(c.prompt).toBe('Fix the parser');
  });

  it('sends an untouched rendering as the template with its variables, so the run records the template', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.chooseTemplate('fix-bug');
    c.vars.component = 'the parser';
    await c.applyTemplate();
    expect(c.templateUse).toEqual({ mode: 'template', name: 'fix-bug' });
    c.vars.component = 'changed after filling'; // not what the editor shows
    await c.send();
    expect(a.start).toHaveBeenCalledWith(expect.objectContaining({ prompt: '', template: 'fix-bug', vars: { component: 'the parser' } }));
  });

  it('sends an edited rendering as plain text, saying it was edited from the template', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.chooseTemplate('fix-bug');
    c.vars.component = 'the parser';
    await c.applyTemplate();
    c.prompt += ' quickly';
    expect(c.templateUse).toEqual({ mode: 'edited', name: 'fix-bug' });
    await c.send();
    expect(a.start).toHaveBeenCalledWith(expect.objectContaining({ prompt: 'Fix the parser quickly', template: '', vars: {} }));
    c.prompt = 'Something else entirely';
    expect(c.templateUse).toBeNull();
    expect(c.spec()).toMatchObject({ prompt: 'Something else entirely', template: '' });
  });

  it('broadcasts a template and a new chat on every site when asked', async () => {
    const a = fakeApi();
    const c = new ComposeState(a);
    await c.load();
    c.chooseTemplate('fix-bug');
    c.vars.component = 'x';
    await c.applyTemplate();
    c.broadcast = true;
    c.broadcastNewChat = true;
    c.toggleBroadcastSite('chatgpt');
    await c.send();
    expect(a.broadcast).toHaveBeenCalledWith(expect.objectContaining({ prompt: '', template: 'fix-bug', vars: { component: 'x' }, sites: ['chatgpt'], newChat: true }));
  });

  it('keeps the events of a run that came before the send returned, so a run that ended at once shows ended', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const a = fakeApi({
      start: vi.fn(async () => (await gate, info('job-1', 'chatgpt'))),
      get: vi.fn(async (id: string) => info(id, 'chatgpt', { state: 'failed', ended: true })),
    });
    const c = new ComposeState(a);
    await c.load();
    c.prompt = 'hi';
    const sent = c.send();
    c.onEvent({ jobId: 'job-1', kind: 'ended', state: 'failed', at: '' });
    c.onEvent({ jobId: 'job-other', kind: 'partial', text: 'not ours', at: '' });
    release();
    await sent;
    expect(c.runs.map((r) => [r.id, r.state, r.ended])).toEqual([['job-1', 'failed', true]]);
    expect(a.get).toHaveBeenCalledWith('job-1'); // the ended run is read back whole
  });

  it('replaces a retried run with the new one', async () => {
    const c = new ComposeState(fakeApi());
    await c.load();
    c.prompt = 'hi';
    await c.send();
    await c.retry('job-1');
    expect(c.runs.map((r) => r.id)).toEqual(['job-2']);
  });

  it("shows History's retry as its run, and sends nothing the site may hold until told", async () => {
    const hold = { sent: 'yes', collectable: false, message: 'ChatGPT already has this prompt' };
    const retryRun = vi.fn(async (_s: string, again: boolean) => (again ? { run: info('job-9', 'chatgpt') } : { held: hold }));
    const c = new ComposeState(fakeApi({ retryRun } as unknown as Partial<RunsApi>));
    await c.load();
    expect(await c.retryRun('s1')).toEqual(hold);
    expect(c.runs).toEqual([]);
    expect(await c.retryRun('s1', true)).toBe('sent');
    expect(retryRun).toHaveBeenLastCalledWith('s1', true);
    expect(c.runs.map((r) => r.id)).toEqual(['job-9']);
  });
});
