// The History view's state: the search box, the filters, the results, which
// row is selected and the opened run. Searching is debounced so typing fast
// sends one request per pause, and a slow answer to an older query never
// replaces a newer one.

import * as api from '../api/sessions';
import { toEnvelope, type Envelope } from '../envelope';
import { moveIndex } from '../keynav';
import { rangeBounds, rangeProblem, type RangePreset } from '../daterange';
import { toasts } from './toasts.svelte';
import { statesOf } from '../historystates';

export const SEARCH_DEBOUNCE_MS = 120;

export type ListFn = typeof api.list;
export type ShowFn = typeof api.show;
export type FindFn = typeof api.find;

export class HistoryState {
  query = $state('');
  site = $state('');
  /** state is the state group of the filter (lib/historystates), '' for all. */
  state = $state('');
  /** tool is the tool the runs asked for ('' any, 'none' for no tool; lib/historytools). */
  tool = $state('');
  /** The date filter: a quick range, or custom local days (YYYY-MM-DD). */
  range = $state<RangePreset>('any');
  fromDay = $state('');
  toDay = $state('');
  /** The rows of the list: summaries only; the opened run is in detail. */
  items = $state.raw<api.HistoryItem[]>([]);
  total = $state(0);
  /** Sites seen in the unfiltered list, for the site filter. */
  sites = $state.raw<string[]>([]);
  selected = $state(-1);
  detail = $state.raw<api.SessionDetail | null>(null);
  loading = $state(false);
  /** True once a first list answered: an empty list then means "no runs". */
  loaded = $state(false);
  problem = $state.raw<Envelope | null>(null);

  #timer: ReturnType<typeof setTimeout> | undefined;
  #seq = 0;
  #list: ListFn;
  #show: ShowFn;
  #find: FindFn;
  #now: () => Date;

  constructor(list: ListFn = api.list, show: ShowFn = api.show, find: FindFn = api.find, now: () => Date = () => new Date()) {
    this.#list = list;
    this.#show = show;
    this.#find = find;
    this.#now = now;
  }

  /** rangeProblem says what is wrong with a custom date range, or null. */
  get rangeProblem(): string | null {
    return rangeProblem(this.range, this.fromDay, this.toDay);
  }

  /** setRange picks a quick range (or custom) and searches. */
  setRange(r: RangePreset): void {
    this.range = r;
    void this.search();
  }

  /** setDays sets a custom range's days and searches when they make a range. */
  setDays(fromDay: string, toDay: string): void {
    this.range = 'custom';
    this.fromDay = fromDay;
    this.toDay = toDay;
    if (!this.rangeProblem) void this.search();
  }

  /** filtered reports whether a query or filter narrows the list. */
  get filtered(): boolean {
    return this.query.trim() !== '' || this.site !== '' || this.state !== '' || this.tool !== '' || this.range !== 'any';
  }

  /** setQuery records what was typed and searches after a pause. */
  setQuery(q: string): void {
    this.query = q;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.search(), SEARCH_DEBOUNCE_MS);
  }

  setSite(site: string): void {
    this.site = site;
    void this.search();
  }

  setState(state: string): void {
    this.state = state;
    void this.search();
  }

  setTool(tool: string): void {
    this.tool = tool;
    void this.search();
  }

  /** search asks for the current query and filters now. */
  async search(): Promise<void> {
    clearTimeout(this.#timer);
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const bounds = rangeBounds(this.range, this.fromDay, this.toDay, this.#now());
      const states = statesOf(this.state);
      const res =
        bounds.from || bounds.to || states.length || this.tool
          ? await this.#find({ query: this.query, site: this.site, state: '', states, tool: this.tool, from: bounds.from ?? '', to: bounds.to ?? '', limit: 100 } as api.HistoryFilter)
          : await this.#list(this.query, this.site, '', 100);
      if (seq !== this.#seq) return; // a newer search is on its way
      this.items = res.items ?? [];
      this.total = res.total;
      this.problem = null;
      // Keep the opened run selected when the new list holds it.
      const open = this.detail?.session?.id;
      const at = open ? this.items.findIndex((l) => l.session?.id === open) : -1;
      this.selected = at >= 0 ? at : this.items.length ? 0 : -1;
      if (!this.filtered) {
        this.sites = [...new Set(this.items.map((l) => l.session?.site ?? '').filter(Boolean))].sort();
      }
      this.loaded = true;
    } catch (e) {
      if (seq !== this.#seq) return;
      this.problem = toEnvelope(e);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  /** onKey handles list keys (arrows, Home, End, Enter); true when it used the key. */
  onKey(key: string): boolean {
    if (key === 'Enter') {
      if (this.selected >= 0) void this.open(this.selected);
      return this.selected >= 0;
    }
    const next = moveIndex(this.selected, key, this.items.length);
    if (next === null) return false;
    this.selected = next;
    return true;
  }

  /** open shows run i of the list in the detail pane. */
  async open(i: number): Promise<void> {
    const id = this.items[i]?.session?.id;
    if (!id) return;
    this.selected = i;
    try {
      this.detail = await this.#show(id);
    } catch (e) {
      toasts.error(e);
    }
  }

  /** openId shows run id in the detail pane, whether or not the list holds it (a notification's click). */
  async openId(id: string): Promise<void> {
    if (!id) return;
    try {
      this.detail = await this.#show(id);
      // After the answer, since a list may have arrived meanwhile.
      const i = this.items.findIndex((l) => l.session?.id === id);
      if (i >= 0) this.selected = i;
    } catch (e) {
      toasts.error(e);
    }
  }

  close(): void {
    this.detail = null;
  }
}
