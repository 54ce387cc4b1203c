// A small Markdown renderer for answers that came from a chat site. The
// answer is untrusted: every character of it is escaped, and the only tags in
// the output are the ones this file writes (p, h3-h5, pre/code, code, strong,
// em, a, ul/ol/li, blockquote, br). Links keep only http, https and mailto
// URLs; anything else (javascript:, data:, vbscript:, relative) stays text.
// Raw HTML in the answer is shown as text, never interpreted.

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
function inline(text: string): string {
  const parts = text.split(/(`[^`\n]+`)/g);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${escapeHTML(part.slice(1, -1))}</code>`;
      return emphasis(part);
    })
    .join('');
}

function emphasis(raw: string): string {
  let out = '';
  let rest = raw;
  const link = /\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/;
  for (;;) {
    const m = link.exec(rest);
    if (!m) break;
    out += styles(escapeHTML(rest.slice(0, m.index)));
    const url = safeURL(m[2]);
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

/** renderMarkdown turns untrusted Markdown into HTML made only of safe tags. */
export function renderMarkdown(src: string): string {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(`<p>${para.map(inline).join('<br>')}</p>`);
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
      out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
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
        items.push(`<li>${inline(m[2])}</li>`);
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
      out.push(`<blockquote>${renderMarkdown(quoted.join('\n'))}</blockquote>`);
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
