// The composer and its live runs. One instance (composer) is shared, so
// the Tabs view can bind a tab to it and the quick prompt can watch runs.

import * as api from '../api/runs';
import * as tabsApi from '../api/tabs';
import type { TabState } from '../api/tabs';
import type { RunEvent } from '../api/runevents';
import { applyEvent, fromInfo, type LiveRun } from '../liverun';
import { fuzzyFilter } from '../fuzzy';
import { toasts } from './toasts.svelte';
import { composeFiles } from './attachments.svelte';
import { appState } from './app.svelte';
import * as settingsApi from '../api/settings';
import { WhereState } from './where.svelte';

export type RunsApi = Pick<typeof api, 'start' | 'broadcast' | 'cancel' | 'retry' | 'get' | 'sites' | 'models' | 'templates' | 'renderTemplate'> &
  Partial<Pick<typeof api, 'retryOnTab' | 'collect' | 'retryRun' | 'collectRun' | 'projects'>>;
export type TabsListApi = Pick<typeof tabsApi, 'list'>;

/** BroadcastPrefs keep the broadcast's sites across restarts (the settings' broadcastSites). */
export interface BroadcastPrefs {
  saved(): readonly string[] | undefined;
  save(sites: string[]): Promise<unknown>;
}

const settingsPrefs: BroadcastPrefs = {
  saved: () => appState.settings?.broadcastSites,
  async save(sites) {
    const cur = appState.settings;
    if (!cur) return;
    appState.applySettings(await settingsApi.save({ ...cur, broadcastSites: sites } as settingsApi.SettingsData));
  },
};

/** FollowUp names the run a follow-up continues, as the composer shows it. */
export interface FollowUp {
  id: string;
  site: string;
  siteName: string;
  title: string;
}

export const CONTRACTS = ['', 'assess', 'plan', 'code', 'all', 'none'] as const;

export class ComposeState {
  sites = $state.raw<api.SiteInfo[]>([]);
  /** target says whether the run goes to a site, to one bound tab, or follows up a run's conversation. */
  target = $state<'site' | 'tab' | 'follow'>('site');
  /** followUp is the run whose conversation the next send continues (target 'follow'). */
  followUp = $state.raw<FollowUp | null>(null);
  site = $state('chatgpt');
  tab = $state.raw<TabState | null>(null);
  newChat = $state(false);
  models = $state.raw<api.ModelInfo[]>([]);
  model = $state('default');
  /** effort is the effort tier chosen ('' keeps the site's selection). */
  effort = $state('');
  /** tool is the site's composer tool to switch on for an ask ('' none). */
  tool = $state('');
  /** place is where an ask's new chat goes on a site that offers it (temporary chat, project, GPT, archive). */
  readonly place: WhereState;

  templates = $state.raw<api.TemplateInfo[]>([]);
  templateQuery = $state('');
  template = $state('');
  vars = $state<Record<string, string>>({});

  prompt = $state('');
  /**
   * rendered is the template, variables and text that "Fill the prompt"
   * last put in the editor: while the editor still holds exactly that text
   * the run is sent as the template with its variables, so its session
   * records the template.
   */
  rendered = $state.raw<{ template: string; vars: Record<string, string>; text: string } | null>(null);

  kind = $state<'ask' | 'code'>('ask');
  zips = $state<'one' | 'several'>('one');
  allowInline = $state(false);
  contract = $state('');
  /** repoRoot and paths are the repository provenance (a local clone and the paths the task is about). */
  repoRoot = $state('');
  paths = $state('');

  broadcast = $state(false);
  broadcastSites = $state<string[]>([]);
  broadcastModels = $state<Record<string, string>>({});
  /** broadcastNewChat asks every site in a fresh chat (several open tabs of a site then do not matter). */
  broadcastNewChat = $state(false);

  /** runs are the runs on show: one, or a broadcast's columns. */
  runs = $state<LiveRun[]>([]);
  /** earlier are the finished turns above runs when they are follow-ups of them, oldest first. */
  earlier = $state<LiveRun[]>([]);
  /** where says, per run id, where a run of this composer went ("new chat", "tab …", "follow-up"). */
  where = $state<Record<string, string>>({});
  /** filesOf says, per run id, the files a run of this composer took (what "attach the same files" sends again). */
  filesOf = $state<Record<string, { path: string; name: string }[]>>({});
  /** openTabs are the open tabs the "Tab" option offers (all sites; the view filters by site). */
  openTabs = $state.raw<TabState[]>([]);
  /** focusPrompt asks the Compose view to put the caret in the prompt (after "Use in Compose", Ctrl+2). */
  focusPrompt = $state(false);
  sending = $state(false);
  loaded = $state(false);

  #api: RunsApi;
  #tabs: TabsListApi;
  // While a send or retry waits for its answer, the new runs' first events
  // may come before it (a run that fails at once ends before a broadcast's
  // later sites are created): they wait here and are replayed.
  #starting = 0;
  #early: RunEvent[] = [];

  #prefs: BroadcastPrefs;

  constructor(a: RunsApi = api, t: TabsListApi = tabsApi, prefs: BroadcastPrefs = settingsPrefs) {
    this.#api = a;
    this.#tabs = t;
    this.#prefs = prefs;
    this.place = new WhereState(a.projects ?? api.projects);
  }

  /** loadTabs reads the open tabs for the "Tab" picker; [] when the browser is not up. */
  async loadTabs(): Promise<void> {
    try {
      this.openTabs = (await this.#tabs.list()) ?? [];
    } catch {
      this.openTabs = [];
    }
  }

  /** tabsOfSite are the open tabs of site id a run can be sent to. */
  tabsOfSite(id: string): TabState[] {
    return this.openTabs.filter((t) => t.site === id && t.state !== 'other');
  }

  /** load fills the pickers; safe to call again. */
  async load(): Promise<void> {
    try {
      const [sites, templates] = await Promise.all([this.#api.sites(), this.#api.templates()]);
      this.sites = sites;
      this.templates = templates;
      if (!sites.some((s) => s.id === this.site) && sites.length) this.site = sites[0].id;
      this.restoreBroadcastSites();
      await this.loadModels();
      this.loaded = true;
    } catch (e) {
      toasts.error(e);
    }
  }

  get siteInfo(): api.SiteInfo | undefined {
    return this.sites.find((s) => s.id === this.site);
  }

  /** codeAllowed: code mode needs a site that produces sandbox zips, and no follow-up or broadcast. */
  get codeAllowed(): boolean {
    return this.codeUnavailable === '';
  }

  /**
   * codeUnavailable says why code mode cannot be chosen now ('' when it
   * can): a broadcast, a follow-up (it continues the conversation as a
   * question), or a site without sandbox zips, named.
   */
  get codeUnavailable(): string {
    if (this.broadcast) return 'not for broadcasts';
    if (this.target === 'follow') return 'not for follow-ups: a follow-up asks in the same conversation';
    const id = this.target === 'tab' ? this.tab?.site : this.site;
    const site = this.sites.find((s) => s.id === id);
    if (!site) return this.target === 'tab' ? 'choose a tab first' : 'choose a site first';
    return site.code ? '' : `${site.name} produces no sandbox zips`;
  }

  /** efforts are the effort tiers of the site the run would go to. */
  get efforts(): string[] {
    const id = this.target === 'tab' ? (this.tab?.site ?? this.site) : this.target === 'follow' ? this.followUp?.site : this.site;
    return this.sites.find((s) => s.id === id)?.efforts ?? [];
  }

  /** tools are the composer tools of the site the run would go to. */
  get tools(): string[] {
    const id = this.target === 'tab' ? (this.tab?.site ?? this.site) : this.target === 'follow' ? this.followUp?.site : this.site;
    return this.sites.find((s) => s.id === id)?.tools ?? [];
  }

  /**
   * placeChoice says which of "where the chat goes" the run can choose:
   * an ask to a site (not a tab, a follow-up or a broadcast) whose site
   * has a temporary chat, or places (projects, GPTs, the archive).
   */
  get placeChoice(): { temporary: boolean; places: boolean } {
    const s = this.target === 'site' && !this.broadcast && this.kind === 'ask' ? this.siteInfo : undefined;
    return { temporary: !!s?.temporary, places: !!s?.places };
  }

  async setSite(site: string): Promise<void> {
    this.site = site;
    this.model = 'default';
    this.effort = '';
    this.tool = '';
    this.place.reset();
    await this.loadModels();
  }

  async loadModels(): Promise<void> {
    const id = this.target === 'tab' ? (this.tab?.site ?? this.site) : this.target === 'follow' ? this.followUp?.site : this.site;
    if (!id) {
      this.models = [];
      return;
    }
    try {
      this.models = await this.#api.models(id);
    } catch (e) {
      this.models = [];
      toasts.error(e);
    }
  }

  /** bindTab makes the composer send to exactly this tab. */
  async bindTab(tab: TabState): Promise<void> {
    this.tab = tab;
    this.target = 'tab';
    this.focusPrompt = true;
    this.broadcast = false;
    this.newChat = false;
    this.model = 'default';
    await this.loadModels();
  }

  async unbindTab(): Promise<void> {
    this.tab = null;
    this.followUp = null;
    this.target = 'site';
    await this.loadModels();
  }

  /** follow makes the composer's next send a follow-up in run f's conversation. */
  async follow(f: FollowUp): Promise<void> {
    this.followUp = f;
    this.target = 'follow';
    this.focusPrompt = true;
    this.broadcast = false;
    this.newChat = false;
    this.kind = 'ask';
    this.model = 'default';
    await this.loadModels();
  }

  get filteredTemplates() {
    return fuzzyFilter(this.templates, this.templateQuery, (t) => `${t.name} ${t.description ?? ''}`);
  }

  get templateInfo(): api.TemplateInfo | undefined {
    return this.templates.find((t) => t.name === this.template);
  }

  chooseTemplate(name: string): void {
    this.template = name;
    const next: Record<string, string> = {};
    for (const v of this.templateInfo?.variables ?? []) next[v] = this.vars[v] ?? '';
    this.vars = next;
  }

  /** fillWouldReplace: the editor holds a draft the user typed (not the last rendering), which filling would overwrite. */
  get fillWouldReplace(): boolean {
    return this.prompt.trim() !== '' && this.prompt !== this.rendered?.text;
  }

  /** applyTemplate renders the chosen template with the variables into the prompt editor. */
  async applyTemplate(): Promise<boolean> {
    if (!this.template) return false;
    try {
      const vars = { ...this.vars };
      const text = await this.#api.renderTemplate(this.template, vars);
      this.prompt = text;
      this.rendered = { template: this.template, vars, text };
      return true;
    } catch (e) {
      toasts.error(e);
      return false;
    }
  }

  /** fileSites are the sites the attached files would go to. */
  get fileSites(): (string | undefined)[] {
    if (this.broadcast) return this.broadcastSites;
    return [this.target === 'tab' ? this.tab?.site : this.target === 'follow' ? this.followUp?.site : this.site];
  }

  get canSend(): boolean {
    if (this.sending || this.prompt.trim() === '' || composeFiles.block) return false;
    if (this.broadcast) return this.broadcastSites.length > 0;
    if (this.target === 'follow') return !!this.followUp;
    return this.target === 'tab' ? !!this.tab : !!this.site;
  }

  /**
   * templateUse says how the editor's text relates to a template: sent as
   * the template ("template"), rendered from one and then changed
   * ("edited", sent as plain text), or no template at all (null).
   */
  get templateUse(): { mode: 'template' | 'edited'; name: string } | null {
    const r = this.rendered;
    if (!r) return null;
    if (r.text === this.prompt) return { mode: 'template', name: r.template };
    // Text that no longer holds the rendering's first line was replaced, not edited.
    const first = r.text.split('\n', 1)[0].trim();
    return first && this.prompt.includes(first) ? { mode: 'edited', name: r.template } : null;
  }

  /** textOrTemplate is what a run carries: the template with its variables, or the text. */
  textOrTemplate(): { prompt: string; template: string; vars: Record<string, string> } {
    const use = this.templateUse;
    if (use?.mode === 'template' && this.rendered) return { prompt: '', template: this.rendered.template, vars: { ...this.rendered.vars } };
    return { prompt: this.prompt, template: '', vars: {} };
  }

  /** spec is the RunSpec the composer would send now (one run). */
  spec(): api.RunSpec {
    const onTab = this.target === 'tab' && this.tab;
    const follow = this.target === 'follow' && this.followUp ? this.followUp.id : '';
    return {
      kind: follow ? 'ask' : this.kind,
      site: onTab || follow ? '' : this.site,
      tabId: onTab ? this.tab!.targetId : '',
      followUp: follow,
      shownRun: onTab || follow ? '' : this.shownRun(this.site),
      model: this.model === 'default' ? '' : this.model,
      effort: this.efforts.includes(this.effort) ? this.effort : '',
      tool: (follow || this.kind === 'ask') && this.tools.includes(this.tool) ? this.tool : '',
      ...this.textOrTemplate(),
      newChat: !onTab && !follow && this.kind === 'ask' && this.newChat,
      zips: this.kind === 'code' ? this.zips : '',
      allowInline: this.kind === 'code' && this.allowInline,
      contract: this.kind === 'code' ? this.contract : '',
      repoRoot: this.kind === 'code' ? this.repoRoot.trim() : '',
      sourcePaths: this.kind === 'code' ? splitPaths(this.paths) : [],
      files: composeFiles.paths,
      ...this.place.fields(this.placeChoice.temporary, this.placeChoice.places),
    };
  }

  /**
   * shownRun is the session of the run on screen for site id (its
   * conversation, or its tab when it got none): a send that names no tab
   * goes there when several tabs of the site are open. '' when none.
   */
  shownRun(id: string): string {
    return this.runs.find((r) => r.site === id && r.session)?.session ?? '';
  }

  /** siteModels caches each site's models for the broadcast's pickers. */
  siteModels = $state.raw<Record<string, api.ModelInfo[]>>({});

  #restored = false;

  /**
   * restoreBroadcastSites ticks the sites the user last chose for a
   * broadcast (those the registry still has), once the settings are read
   * and before the user chose any; later calls do nothing.
   */
  restoreBroadcastSites(): void {
    const saved = this.#prefs.saved();
    if (this.#restored || !this.sites.length || saved === undefined) return;
    this.#restored = true;
    if (this.broadcastSites.length) return;
    for (const id of saved) if (this.sites.some((s) => s.id === id)) this.#addBroadcastSite(id);
  }

  toggleBroadcastSite(id: string): void {
    if (this.broadcastSites.includes(id)) this.broadcastSites = this.broadcastSites.filter((s) => s !== id);
    else this.#addBroadcastSite(id);
    this.#prefs.save([...this.broadcastSites]).catch(() => {}); // a choice not kept is no reason to interrupt
  }

  #addBroadcastSite(id: string): void {
    if (this.broadcastSites.includes(id)) return;
    this.broadcastSites = [...this.broadcastSites, id];
    if (!this.siteModels[id]) {
      this.#api.models(id).then(
        (ms) => (this.siteModels = { ...this.siteModels, [id]: ms }),
        () => {}, // the picker then offers only the site's default
      );
    }
  }

  /** send starts the run (or the broadcast) and shows it; false when nothing was sent. */
  async send(): Promise<boolean> {
    if (!this.canSend) return false;
    this.sending = true;
    this.#starting++;
    try {
      if (!(await composeFiles.verify())) return false;
      if (this.broadcast) {
        const models: Record<string, string> = {};
        for (const s of this.broadcastSites) {
          const m = this.broadcastModels[s];
          if (m && m !== 'default') models[s] = m;
        }
        const infos = await this.#api.broadcast({ ...this.textOrTemplate(), sites: [...this.broadcastSites], models, newChat: this.broadcastNewChat, files: composeFiles.paths });
        this.runs = infos.map((i) => fromInfo(i));
        if (this.broadcastNewChat) for (const r of this.runs) this.where[r.id] = 'new chat';
      } else {
        const spec = this.spec();
        const run = fromInfo(await this.#api.start(spec));
        // A run to a tab or a follow-up names no site until it starts: the
        // card says whose it is from the start.
        if (!run.site) run.site = this.target === 'tab' ? (this.tab?.site ?? '') : this.target === 'follow' ? (this.followUp?.site ?? '') : this.site;
        this.where[run.id] = this.#whereOf(spec);
        this.runs = [run];
      }
      const took = composeFiles.chips.map((ch) => ({ path: ch.path, name: ch.name }));
      if (took.length) for (const r of this.runs) this.filesOf[r.id] = took;
      composeFiles.sent(this.runs.map((r) => r.id));
      this.earlier = [];
      this.prompt = '';
      this.rendered = null;
      this.#replay();
      return true;
    } catch (e) {
      toasts.error(e);
      return false;
    } finally {
      this.sending = false;
      this.#settle();
    }
  }

  #whereOf(spec: api.RunSpec): string {
    if (spec.followUp) return 'follow-up';
    if (spec.tabId) return `tab ${this.tab?.title || 'bound'}`;
    return WhereState.label(spec) || (spec.newChat ? 'new chat' : '');
  }

  /**
   * followUpRun sends text as a follow-up in run id's conversation (the
   * follow-up capability History's "Follow up" uses): the finished run
   * moves above, the new one streams below it. False when nothing was sent.
   */
  async followUpRun(id: string, text: string, sameFiles = false): Promise<boolean> {
    const prev = this.runs.find((r) => r.id === id);
    const prompt = text.trim();
    if (!prev || !prev.session || !prompt || this.sending) return false;
    this.sending = true;
    this.#starting++;
    // The follow-up carries no file unless the user asks for the same ones again.
    const took = sameFiles ? (this.filesOf[id] ?? []) : [];
    try {
      const run = fromInfo(
        await this.#api.start({
          kind: 'ask', site: '', tabId: '', followUp: prev.session, shownRun: '', model: '', effort: '', tool: '', prompt, template: '', vars: {},
          newChat: false, temporary: false, archiveAfter: false, project: '', gpt: '', zips: '', allowInline: false, contract: '', repoRoot: '',
          sourcePaths: [], files: took.map((f) => f.path),
        } as api.RunSpec),
      );
      if (!run.site) run.site = prev.site;
      if (took.length) this.filesOf[run.id] = took;
      this.where[run.id] = 'follow-up';
      this.earlier = [...this.earlier, prev];
      this.runs = [run];
      this.#replay();
      return true;
    } catch (e) {
      toasts.error(e);
      return false;
    } finally {
      this.sending = false;
      this.#settle();
    }
  }

  /** retryOnTab sends run id again pinned to tab targetId (its tab_ambiguous picker). */
  async retryOnTab(id: string, targetId: string): Promise<void> {
    if (!this.#api.retryOnTab) return;
    this.#starting++;
    try {
      const prev = this.runs.find((r) => r.id === id);
      const run = fromInfo(await this.#api.retryOnTab(id, targetId));
      if (!run.site && prev) run.site = prev.site;
      const title = this.openTabs.find((t) => t.targetId === targetId)?.title;
      this.where[run.id] = title ? `tab ${title}` : 'the tab you picked';
      const i = this.runs.findIndex((r) => r.id === id);
      if (i >= 0) this.runs[i] = run;
      this.#replay();
    } catch (e) {
      toasts.error(e);
    } finally {
      this.#settle();
    }
  }

  /**
   * retryRun sends History's run session again as this composer's new run
   * (shown as a send is): 'sent' once it started, the hold when nothing was
   * sent because the site may already have the prompt (the user chooses
   * then: sendAgain, or collectRun), 'failed' on an error (toasted: a gone
   * file is named).
   */
  async retryRun(session: string, sendAgain = false): Promise<'sent' | 'failed' | api.RetryHold> {
    const retryRun = this.#api.retryRun ?? api.retryRun;
    this.#starting++;
    try {
      const out = await retryRun(session, sendAgain);
      if (!out.run) return out.held ?? 'failed';
      this.#show(fromInfo(out.run));
      return 'sent';
    } catch (e) {
      toasts.error(e);
      return 'failed';
    } finally {
      this.#settle();
    }
  }

  /** collectRun collects History's run session's answer without sending again, shown as this composer's run; false on an error (toasted). */
  async collectRun(session: string): Promise<boolean> {
    const collectRun = this.#api.collectRun ?? api.collectRun;
    this.#starting++;
    try {
      this.#show(fromInfo(await collectRun(session)));
      return true;
    } catch (e) {
      toasts.error(e);
      return false;
    } finally {
      this.#settle();
    }
  }

  // show makes run, just started elsewhere than the prompt box, the one on show.
  #show(run: LiveRun): void {
    this.earlier = [];
    this.runs = [run];
    this.#replay();
    if (run.ended) void this.refresh(run.id);
  }

  /** adopt shows run (the quick prompt's, after "Open in Ferry") as the composer's run. */
  adopt(run: LiveRun): void {
    this.earlier = [];
    this.runs = [run];
    if (run.ended) void this.refresh(run.id);
  }

  /** onEvent applies a run:event; an ended run is read back whole. */
  onEvent(ev: RunEvent): void {
    const i = this.runs.findIndex((r) => r.id === ev.jobId);
    if (i < 0) {
      if (this.#starting > 0) this.#early.push(ev);
      return;
    }
    this.runs[i] = applyEvent(this.runs[i], ev);
    if (ev.kind === 'ended') void this.refresh(ev.jobId);
  }

  async refresh(id: string): Promise<void> {
    try {
      const info = await this.#api.get(id);
      const i = this.runs.findIndex((r) => r.id === id);
      if (i >= 0) this.runs[i] = fromInfo(info, this.runs[i]);
    } catch (e) {
      toasts.error(e);
    }
  }

  async cancel(id: string): Promise<void> {
    try {
      const info = await this.#api.cancel(id);
      const i = this.runs.findIndex((r) => r.id === id);
      if (i >= 0) this.runs[i] = fromInfo(info, this.runs[i]);
    } catch (e) {
      toasts.error(e);
    }
  }

  /** collect replaces a run stopped after its send with the run that collects the rest of its answer. */
  async collect(id: string): Promise<void> {
    const collect = this.#api.collect ?? api.collect;
    this.#starting++;
    try {
      const info = await collect(id);
      const i = this.runs.findIndex((r) => r.id === id);
      if (i >= 0) this.runs[i] = fromInfo(info, { ...this.runs[i], timeline: [], partials: 0 });
      this.#replay();
    } catch (e) {
      toasts.error(e);
    } finally {
      this.#settle();
    }
  }

  /** retry replaces the run with a new run of the same prompt. */
  async retry(id: string): Promise<void> {
    this.#starting++;
    try {
      const info = await this.#api.retry(id);
      const i = this.runs.findIndex((r) => r.id === id);
      if (i >= 0) {
        const run = fromInfo(info);
        if (!run.site) run.site = this.runs[i].site;
        this.where[run.id] = this.where[id] ?? '';
        this.runs[i] = run;
      }
      this.#replay();
    } catch (e) {
      toasts.error(e);
    } finally {
      this.#settle();
    }
  }

  // replay applies the events that came before their run was shown.
  #replay(): void {
    const early = this.#early;
    this.#early = [];
    for (const ev of early) {
      if (this.runs.some((r) => r.id === ev.jobId)) this.onEvent(ev);
      else this.#early.push(ev); // another send's, still waiting
    }
  }

  #settle(): void {
    if (--this.#starting === 0) this.#early = [];
  }
}

/** splitPaths reads a list of paths typed one per line or comma-separated. */
export function splitPaths(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);
}

export const composer = new ComposeState();
