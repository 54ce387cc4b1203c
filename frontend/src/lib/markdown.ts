// A small Markdown renderer for answers that came from a chat site. The
// answer is untrusted: every character of it is escaped, and the only tags in
// the output are the ones this file writes (p, h3-h5, pre/code, code, strong,
// em, a, ul/ol/li, blockquote, br, and the saved-file chip's button and span).
// Links keep only http, https and mailto URLs; anything else (javascript:,
// data:, vbscript:, relative) stays text. A link to the site's own sandbox
// (sandbox:/mnt/data/x.zip, which only the site can open) becomes a chip for
// what Ferry saved of that file, or says it was not retrieved.
// Raw HTML in the answer is shown as text, never interpreted.

/** SavedFile is a file Ferry saved from a run (the run's artifacts). */
export interface SavedFile {
  name: string;
  path?: string;
  verdict?: string;
  /** file is what is at path now: '' (there), 'trashed' or 'missing'. */
  file?: string;
}

/** RenderOptions tells the renderer what Ferry saved of the run. */
export interface RenderOptions {
  /** files are the run's artifacts; a sandbox link names one of them. */
  files?: readonly SavedFile[];
  /** pending says the run goes on: a file not saved yet may still come. */
  pending?: boolean;
}

/** sandboxName is the file a sandbox: link names (its last path part), or null for another link. */
export function sandboxName(raw: string): string | null {
  const m = /^sandbox:(.*)$/i.exec(raw.trim());
  if (!m) return null;
  const last = m[1].split(/[/\\]/).pop() ?? '';
  try {
    return decodeURIComponent(last) || null;
  } catch {
    return last || null;
  }
}

/** savedChip is the chip for sandbox file name: the saved file, or why there is none. */
function savedChip(name: string, opts: RenderOptions): string {
  const f = opts.files?.find((x) => x.name === name);
  const label = `<code>${escapeHTML(name)}</code>`;
  if (f?.path && (f.file === 'trashed' || f.file === 'missing')) {
    const now = f.file === 'trashed' ? 'moved to trash' : 'missing';
    return `<span class="saved-file missing" data-testid="saved-file" data-file="${f.file}">${label} <span class="saved-state">${now}</span></span>`;
  }
  if (f?.path) {
    const verdict = f.verdict || 'unverified';
    return `<button type="button" class="saved-file" data-testid="saved-file" data-path="${escapeHTML(f.path)}" data-verdict="${escapeHTML(verdict)}" title="Show the file Ferry saved in Artifacts">${label} <span class="saved-state">saved · ${escapeHTML(verdict)}</span></button>`;
  }
  const why = opts.pending ? 'not saved yet' : 'not retrieved';
  return `<span class="saved-file missing" data-testid="saved-file" data-missing="true">${label} <span class="saved-state">${why}</span></span>`;
}

/** escapeHTML makes text safe in element content and in quoted attributes. */
export function escapeHTML(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** safeURL returns the URL when its scheme is http, https or mailto, else null. */
export function safeURL(raw: string): string | null {
  const s = raw.trim();
  // Control characters and spaces are how "java\tscript:" sneaks past checks.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(s)) return null;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'mailto:') return null;
  return u.href;
}

// Inline: code spans first (their content is literal), then links, bold,
// italic. Works on already-escaped text, so markers are plain characters.
function inline(text: string, opts: RenderOptions): string {
  const parts = text.split(/(`[^`\n]+`)/g);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${escapeHTML(part.slice(1, -1))}</code>`;
      return emphasis(part, opts);
    })
    .join('');
}

function emphasis(raw: string, opts: RenderOptions): string {
  let out = '';
  let rest = raw;
  const link = /\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/;
  for (;;) {
    const m = link.exec(rest);
    if (!m) break;
    const before = rest.slice(0, m.index);
    const url = safeURL(m[2]);
    const sandbox = sandboxName(m[2]);
    if (sandbox) {
      // A site's reference directive glued to the link (":name{…}[…](sandbox:…)") is its markup, not text.
      out += styles(escapeHTML(before.replace(/:[a-z][\w-]*\{[^}\n]*\}$/i, '')));
      out += savedChip(sandbox, opts);
      rest = rest.slice(m.index + m[0].length);
      continue;
    }
    out += styles(escapeHTML(before));
    if (url) {
      out += `<a href="${escapeHTML(url)}" target="_blank" rel="noopener noreferrer nofollow">${styles(escapeHTML(m[1]))}</a>`;
    } else {
      out += escapeHTML(m[0]);
    }
    rest = rest.slice(m.index + m[0].length);
  }
  return out + styles(escapeHTML(rest));
}

function styles(escaped: string): string {
  return escaped
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>')
    .replace(/__([^_\n]+)__/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*([^*\n]+)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/(^|[^_\w])_([^_\n]+)_(?!\w)/g, '$1<em>$2</em>');
}

/**
 * renderMarkdown turns untrusted Markdown into HTML made only of safe tags;
 * opts says what Ferry saved of the run, for the sandbox links.
 */
export function renderMarkdown(src: string, opts: RenderOptions = {}): string {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(`<p>${para.map((l) => inline(l, opts)).join('<br>')}</p>`);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)\s*([\w+.#-]*)/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      const lang = fence[2] ? ` data-lang="${escapeHTML(fence[2])}"` : '';
      out.push(`<pre${lang}><code>${escapeHTML(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1].length + 2, 5);
      out.push(`<h${level}>${inline(heading[2], opts)}</h${level}>`);
      continue;
    }
    const list = /^\s*([-*+]|\d{1,9}[.)])\s+/.exec(line);
    if (list) {
      flush();
      const ordered = /\d/.test(list[1]);
      const items: string[] = [];
      while (i < lines.length) {
        const m = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/.exec(lines[i]);
        if (!m || /\d/.test(m[1]) !== ordered) break;
        items.push(`<li>${inline(m[2], opts)}</li>`);
        i++;
      }
      i--;
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.join('')}</${tag}>`);
      continue;
    }
    if (/^\s*>/.test(line)) {
      flush();
      const quoted: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*>\s?/, ''));
      i--;
      out.push(`<blockquote>${renderMarkdown(quoted.join('\n'), opts)}</blockquote>`);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    para.push(line);
  }
  flush();
  return out.join('\n');
}
