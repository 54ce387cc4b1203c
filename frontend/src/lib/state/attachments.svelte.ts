// The files a prompt carries: one AttachmentsState for Compose and one for
// the quick prompt. Files come from a drop on the window or the open
// dialog; the Service checks them for the target site(s) whenever the files
// or the target change, and again before the send, so a file the site
// refuses shows why on its chip and stops the send. A sent prompt takes its
// files with it: the chips leave the composer, and come back only when the
// site refused one of them (nothing was sent), showing why.

import * as api from '../api/attachments';
import { toEnvelope, type Envelope } from '../envelope';
import { addPaths, applyChecks, applyRefusal, removePath, sendBlock, type Chip, type FilesVerdict } from '../attachments';

export type AttachmentsApi = Pick<typeof api, 'pick' | 'check'>;

export class AttachmentsState {
  chips = $state.raw<Chip[]>([]);
  checks = $state.raw<FilesVerdict[]>([]);
  /** problem is a check that could not be made at all (an unknown site, say). */
  problem = $state.raw<Envelope | null>(null);
  checking = $state(false);

  #api: AttachmentsApi;
  #sites: string[] = [];
  #model = '';
  #seq = 0;
  // A run's refusal (the site's words at upload) outlives the next check,
  // which only knows the limits Ferry knows: path → site → words' envelope.
  #refusedBySite = new Map<string, Map<string, Envelope>>();
  // The chips each run took with it, by run id.
  #sentWith = new Map<string, Chip[]>();
  #handled = new Set<string>();

  constructor(a: AttachmentsApi = api) {
    this.#api = a;
  }

  /** paths are the absolute paths a run is given. */
  get paths(): string[] {
    return this.chips.map((c) => c.path);
  }

  /** block says why the files stop the send ("" when they do not). */
  get block(): string {
    if (this.chips.length && this.#sites.length === 0) return 'Choose a site to send the files to.';
    if (this.chips.length && this.problem) return `The files could not be checked: ${this.problem.message}`;
    return sendBlock(this.chips, this.checks);
  }

  /** target sets the site(s) and model the files go to and checks them again when that changed. */
  target(sites: (string | undefined | null)[], model: string): void {
    const next = sites.filter((s): s is string => !!s);
    const m = model === 'default' ? '' : model;
    if (next.join(',') === this.#sites.join(',') && m === this.#model) return;
    this.#sites = next;
    this.#model = m;
    void this.refresh();
  }

  /** add puts files on chips (each once) and checks them. */
  add(paths: string[]): void {
    const next = addPaths(this.chips, paths);
    if (next.length === this.chips.length) return;
    this.chips = next;
    void this.refresh();
  }

  /** remove drops a file; the others are checked again (a rename may go). */
  remove(path: string): void {
    this.chips = removePath(this.chips, path);
    this.#refusedBySite.delete(path);
    void this.refresh();
  }

  clear(): void {
    this.chips = [];
    this.checks = [];
    this.problem = null;
    this.#refusedBySite.clear();
    this.#sentWith.clear();
    this.#seq++;
  }

  /** pick adds the files chosen in the open dialog. */
  async pick(): Promise<void> {
    try {
      this.add(await this.#api.pick());
    } catch (e) {
      this.problem = toEnvelope(e);
    }
  }

  /** refresh asks the Service about every file for every target site; a later call wins. */
  async refresh(): Promise<void> {
    const seq = ++this.#seq;
    const paths = this.paths;
    if (paths.length === 0 || this.#sites.length === 0) {
      this.checks = [];
      this.problem = null;
      return;
    }
    this.checking = true;
    try {
      const model = this.#sites.length === 1 ? this.#model : '';
      const results = await Promise.all(this.#sites.map((site) => this.#api.check({ site, model, files: paths })));
      if (seq !== this.#seq) return;
      this.problem = null;
      this.checks = results as FilesVerdict[];
      this.chips = this.#withRunRefusals(applyChecks(this.chips, this.checks));
    } catch (e) {
      if (seq === this.#seq) this.problem = toEnvelope(e);
    } finally {
      if (seq === this.#seq) this.checking = false;
    }
  }

  /** verify checks the files once more right before a send: true when they may go. */
  async verify(): Promise<boolean> {
    if (this.chips.length === 0) return true;
    await this.refresh();
    return this.block === '';
  }

  /**
   * sent hands the files to the runs they went with: the chips leave the
   * composer (the next prompt carries none unless attached again), and a
   * run's refusal of one brings them back (runEnded).
   */
  sent(runIds: string[]): void {
    const took = this.chips;
    for (const id of runIds) this.#sentWith.set(id, took);
    this.chips = [];
    this.checks = [];
    this.problem = null;
    this.#seq++;
    this.checking = false;
  }

  /**
   * runEnded shows a run's refusal of a file (the site's words) on its
   * chip, bringing the files that run took back to the composer (nothing
   * was sent); other runs and errors change nothing.
   */
  runEnded(runId: string, site: string, e: Envelope | null | undefined): void {
    const took = this.#sentWith.get(runId);
    if (!took || !e) return;
    const key = `${runId} ${e.code} ${e.evidence?.file ?? ''}`;
    if (this.#handled.has(key)) return;
    this.#handled.add(key);
    if (applyRefusal(took, e) === took) return;
    const have = new Set(this.chips.map((c) => c.path));
    const back = [...this.chips, ...took.filter((c) => !have.has(c.path))];
    const next = applyRefusal(back, e);
    for (const c of next) {
      if (c.state === 'refused' && !this.chips.find((o) => o.path === c.path && o.state === 'refused')) {
        const bySite = this.#refusedBySite.get(c.path) ?? new Map<string, Envelope>();
        bySite.set(site, e);
        this.#refusedBySite.set(c.path, bySite);
      }
    }
    this.chips = next;
  }

  #withRunRefusals(chips: Chip[]): Chip[] {
    let out = chips;
    for (const site of this.#sites) {
      for (const [path, bySite] of this.#refusedBySite) {
        const e = bySite.get(site);
        if (!e) continue;
        out = out.map((c) => (c.path === path ? { ...c, state: 'refused', words: e.evidence?.site_words || e.message } : c));
      }
    }
    return out;
  }
}

/** composeFiles are Compose's files; quickFiles the quick prompt's. */
export const composeFiles = new AttachmentsState();
export const quickFiles = new AttachmentsState();

interface DropZone {
  el: HTMLElement;
  files: AttachmentsState;
}

const zones: DropZone[] = [];
// Taken at load, so that a drop while no zone shows is still the runtime's
// (ignored) rather than the web view's, which would open the file.
if (typeof window !== 'undefined') api.onFileDrop(routeDrop);

/**
 * dropZone makes el take the files dropped on it for files, and, while it
 * is the last zone shown, the files dropped anywhere else in the window;
 * returns the removal.
 */
export function dropZone(el: HTMLElement, files: AttachmentsState): () => void {
  const z = { el, files };
  zones.push(z);
  api.onFileDrop(routeDrop); // once more, should the runtime have come after the load
  return () => {
    const i = zones.indexOf(z);
    if (i >= 0) zones.splice(i, 1);
  };
}

function routeDrop(x: number, y: number, paths: string[]): void {
  if (paths.length === 0) return;
  const at = document.elementFromPoint(x, y);
  const shown = zones.filter((z) => z.el.isConnected && z.el.getClientRects().length > 0);
  const z = shown.find((s) => at && s.el.contains(at)) ?? shown[shown.length - 1];
  z?.files.add(paths);
}
