// Adding files to the sources of a project from Compose's Where panel, as
// `ferry projects add-source` does on a terminal: the files picked, the
// project resolved and the files checked with nothing uploaded, the
// question asked, and only "Add" uploads, to the project the question
// named; then each file says what became of it (added, refused in the
// site's words, not confirmed).

import * as attachments from '../api/attachments';
import * as runs from '../api/runs';
import { formatSize } from '../attachments';
import { toEnvelope, type Envelope } from '../envelope';

export type AddFn = (req: runs.SourcesRequest) => Promise<runs.AddedSources>;
export type PickFn = () => Promise<string[]>;

export class SourcesState {
  /** idle, checking (the files and the project), asking, adding, done (checked holds each file's outcome) or error. */
  status = $state<'idle' | 'checking' | 'asking' | 'adding' | 'done' | 'error'>('idle');
  /** The project resolved and the files checked (asking), or what became of them (done). */
  checked = $state.raw<runs.AddedSources | null>(null);
  problem = $state.raw<Envelope | null>(null);

  #add: AddFn;
  #pick: PickFn;
  #site = '';
  #files: string[] = [];
  #seq = 0;

  constructor(add: AddFn = runs.addProjectSources, pick: PickFn = attachments.pick) {
    this.#add = add;
    this.#pick = pick;
  }

  /** start picks the files for project on site and checks them; nothing is uploaded. */
  async start(site: string, project: string): Promise<void> {
    const seq = ++this.#seq;
    this.problem = null;
    this.checked = null;
    try {
      const files = await this.#pick();
      if (seq !== this.#seq) return;
      if (!files.length) {
        this.status = 'idle';
        return;
      }
      this.status = 'checking';
      const checked = await this.#add({ site, project, files, confirmed: false });
      if (seq !== this.#seq) return;
      this.#site = site;
      this.#files = files;
      this.checked = checked;
      this.status = 'asking';
    } catch (e) {
      if (seq !== this.#seq) return;
      this.fail(e);
    }
  }

  /** question is what the user answers before anything goes, as the CLI asks it. */
  question(): string {
    const c = this.checked;
    if (!c) return '';
    const n = c.files?.length ?? 0;
    const bytes = (c.files ?? []).reduce((sum, f) => sum + f.bytes, 0);
    const where = c.project.name ? `“${c.project.name}”` : `at ${c.project.address}`;
    return `Add ${n} ${n === 1 ? 'file' : 'files'} (${formatSize(bytes)}) to the project ${where}?`;
  }

  /** confirm uploads the checked files to the project the question named (by its address). */
  async confirm(): Promise<void> {
    const c = this.checked;
    if (this.status !== 'asking' || !c) return;
    const seq = ++this.#seq;
    this.status = 'adding';
    try {
      const out = await this.#add({ site: this.#site, project: c.project.address, files: this.#files, confirmed: true });
      if (seq !== this.#seq) return;
      this.checked = out;
      this.status = 'done';
    } catch (e) {
      if (seq !== this.#seq) return;
      this.fail(e);
    }
  }

  /** notAdded counts the files of a finished upload the project's list does not show. */
  notAdded(): number {
    return this.status === 'done' ? (this.checked?.files ?? []).filter((f) => f.status !== 'added').length : 0;
  }

  /** cancel forgets the question (nothing was uploaded) or the outcome shown. */
  cancel(): void {
    this.#seq++;
    this.status = 'idle';
    this.checked = null;
    this.problem = null;
  }

  private fail(e: unknown): void {
    this.checked = null;
    this.problem = toEnvelope(e);
    this.status = 'error';
  }
}
