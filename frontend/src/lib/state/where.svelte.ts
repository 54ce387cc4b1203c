// Where an ask's new chat goes, as Compose chooses it on a site that offers
// it (service.SiteInfo temporary and places: ChatGPT): its temporary chat,
// archived once the answer is safe, or opened in one of the account's
// projects (listed on demand, since listing opens a tab of the site) or in
// a project or custom GPT the user names.

import * as api from '../api/runs';
import { toEnvelope, type Envelope } from '../envelope';

export type ProjectsFn = (site: string) => Promise<api.Project[]>;

/** OTHER is the place choice of a project or GPT the user types. */
export const OTHER = '__other__';

/** PlaceFields are the RunSpec fields a WhereState fills. */
export interface PlaceFields {
  temporary: boolean;
  archiveAfter: boolean;
  project: string;
  gpt: string;
}

export class WhereState {
  temporary = $state(false);
  archiveAfter = $state(false);
  /** choice is '' (a plain new chat), a listed project's reference (projectRef), or OTHER. */
  choice = $state('');
  /** text and kind are the project (name or address) or GPT (address) the user typed, with OTHER. */
  text = $state('');
  kind = $state<'project' | 'gpt'>('project');

  /** The account's projects of site listedFor, once listed. */
  projects = $state.raw<api.Project[]>([]);
  listedFor = $state('');
  status = $state<'idle' | 'loading' | 'loaded' | 'error'>('idle');
  problem = $state.raw<Envelope | null>(null);

  #list: ProjectsFn;
  #seq = 0;

  constructor(list: ProjectsFn = api.projects) {
    this.#list = list;
  }

  /** reset forgets the choices and the projects (another site was chosen). */
  reset(): void {
    this.#seq++;
    this.temporary = false;
    this.archiveAfter = false;
    this.choice = '';
    this.text = '';
    this.kind = 'project';
    this.projects = [];
    this.listedFor = '';
    this.status = 'idle';
    this.problem = null;
  }

  /** load lists site's projects; a failure is kept in problem for the view to show. */
  async load(site: string): Promise<void> {
    const seq = ++this.#seq;
    this.status = 'loading';
    this.problem = null;
    try {
      const list = (await this.#list(site)) ?? [];
      if (seq !== this.#seq) return;
      this.projects = list;
      this.listedFor = site;
      this.status = 'loaded';
    } catch (e) {
      if (seq !== this.#seq) return;
      this.projects = [];
      this.problem = toEnvelope(e);
      this.status = 'error';
    }
  }

  /**
   * projectRef is how a listed project is sent: by its name, which the run
   * records, unless another project has the same name; then by its address.
   */
  projectRef(p: api.Project): string {
    return this.projects.filter((q) => q.name === p.name).length === 1 ? p.name : p.address;
  }

  /**
   * fields are what a run to a site with temporary (a temporary chat) and
   * places (projects, GPTs, the archive) carries: a temporary chat goes
   * nowhere else and leaves nothing to archive.
   */
  fields(temporary: boolean, places: boolean): PlaceFields {
    const out: PlaceFields = { temporary: temporary && this.temporary, archiveAfter: false, project: '', gpt: '' };
    if (out.temporary || !places) return out;
    out.archiveAfter = this.archiveAfter;
    if (this.choice === OTHER) {
      const text = this.text.trim();
      if (this.kind === 'gpt') out.gpt = text;
      else out.project = text;
    } else {
      out.project = this.choice;
    }
    return out;
  }

  /** label says where a run with fields went, for its card ('' for a plain chat). */
  static label(f: PlaceFields): string {
    const parts: string[] = [];
    if (f.temporary) parts.push('temporary chat');
    if (f.project) parts.push(`project ${f.project}`);
    if (f.gpt) parts.push('custom GPT');
    if (f.archiveAfter) parts.push('archived after');
    return parts.join(', ');
  }
}
