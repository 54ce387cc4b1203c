import { describe, expect, it } from 'vitest';
import { renderMarkdown, safeURL, sandboxName } from './markdown';

// The tags and attributes the renderer may write; anything else in the output
// came from the input and would be an injection. The tests need no DOM: the
// output is tokenized strictly, and any "<" or ">" outside a well-formed
// allowed tag fails.
const ALLOWED_TAGS = new Set(['p', 'h3', 'h4', 'h5', 'pre', 'code', 'strong', 'em', 'a', 'ul', 'ol', 'li', 'blockquote', 'br']);
const ALLOWED_ATTRS = new Set(['href', 'target', 'rel', 'data-lang']);

interface Tag {
  name: string;
  attrs: Record<string, string>;
}

function unescape(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

function tokenize(html: string): { tags: Tag[]; text: string } {
  const tags: Tag[] = [];
  let text = '';
  const re = /<(\/?)([a-z0-9-]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/g;
  let last = 0;
  for (const m of html.matchAll(re)) {
    const between = html.slice(last, m.index);
    if (/[<>]/.test(between)) throw new Error(`stray markup ${JSON.stringify(between)} in ${html}`);
    text += unescape(between);
    const attrs: Record<string, string> = {};
    for (const a of m[3].matchAll(/([a-z-]+)="([^"]*)"/g)) attrs[a[1]] = unescape(a[2]);
    tags.push({ name: m[2], attrs });
    last = m.index! + m[0].length;
  }
  const tail = html.slice(last);
  if (/[<>]/.test(tail)) throw new Error(`stray markup ${JSON.stringify(tail)} in ${html}`);
  return { tags, text: text + unescape(tail) };
}

const HOSTILE: [string, string][] = [
  ['a script tag', '<script>alert(1)</script>'],
  ['an image with onerror', '<img src=x onerror="alert(1)">'],
  ['an svg with onload', '<svg onload=alert(1)><circle/></svg>'],
  ['an iframe', '<iframe src="javascript:alert(1)"></iframe>'],
  ['a javascript link', '[click](javascript:alert(1))'],
  ['a javascript link with case and entities', '[click](JaVaScRiPt:alert(1))'],
  ['a javascript link with a tab inside', '[click](java\tscript:alert(1))'],
  ['a data URL link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['a vbscript link', '[x](vbscript:msgbox(1))'],
  ['a quote breaking out of href', '[x](https://e.com/"onmouseover="alert(1))'],
  ['html inside a code span', '`<img src=x onerror=alert(1)>`'],
  ['html inside a fence', '```html\n<script>alert(1)</script>\n```'],
  ['html inside a heading', '# <b onclick=alert(1)>hi</b>'],
  ['html inside a list', '- <a href="javascript:alert(1)">x</a>'],
  ['html inside a quote', '> <style>body{display:none}</style>'],
  ['an autolink-looking tag', '<https://evil.example/>'],
  ['a fence language with a quote', '```a"onclick="x\ncode\n```'],
];

describe('renderMarkdown with hostile input', () => {
  for (const [name, input] of HOSTILE) {
    it(`keeps ${name} inert`, () => {
      const html = renderMarkdown(input);
      const { tags } = tokenize(html);
      for (const tag of tags) {
        expect(ALLOWED_TAGS, `tag <${tag.name}> in ${html}`).toContain(tag.name);
        for (const [attr, value] of Object.entries(tag.attrs)) {
          expect(ALLOWED_ATTRS, `attribute ${attr} on <${tag.name}>`).toContain(attr);
          if (attr === 'href') expect(value).toMatch(/^(https?:|mailto:)/);
        }
      }
    });
  }

  it('shows the hostile markup as text the user can read', () => {
    expect(tokenize(renderMarkdown('<script>alert(1)</script>')).text).toContain('<script>alert(1)</script>');
  });
});

describe('renderMarkdown subset', () => {
  it('renders headings, emphasis, code and safe links', () => {
    const html = renderMarkdown('# Title\n\nSome **bold** and *it* and `x < y`.\n\n[docs](https://example.com/a?b=1&c=2)');
    expect(html).toContain('<h3>Title</h3>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>it</em>');
    expect(html).toContain('<code>x &lt; y</code>');
    const a = tokenize(html).tags.find((t) => t.name === 'a')!;
    expect(a.attrs.href).toBe('https://example.com/a?b=1&c=2');
    expect(a.attrs.rel).toContain('noopener');
  });

  it('keeps fenced code verbatim with its language', () => {
    const { tags, text } = tokenize(renderMarkdown('```go\nfunc main() { if a < b && c > d {} }\n```'));
    expect(tags[0]).toEqual({ name: 'pre', attrs: { 'data-lang': 'go' } });
    expect(text).toBe('func main() { if a < b && c > d {} }');
  });

  it('renders ordered and unordered lists and quotes', () => {
    const html = renderMarkdown('- a\n- b\n\n1. one\n2. two\n\n> quoted');
    expect(html).toContain('<ul><li>a</li><li>b</li></ul>');
    expect(html).toContain('<ol><li>one</li><li>two</li></ol>');
    expect(html).toContain('<blockquote><p>quoted</p></blockquote>');
  });

  it('leaves a refused link as its source text', () => {
    const { tags, text } = tokenize(renderMarkdown('[x](javascript:alert(1))'));
    expect(tags.some((t) => t.name === 'a')).toBe(false);
    expect(text).toContain('[x](javascript:alert(1))');
  });
});

describe('safeURL', () => {
  it.each([
    ['https://a.example/x', true],
    ['http://a.example', true],
    ['mailto:a@b.c', true],
    ['javascript:alert(1)', false],
    [' javascript:alert(1)', false],
    ['data:text/html,x', false],
    ['/relative', false],
    ['file:///etc/passwd', false],
  ])('%s allowed: %s', (url, ok) => {
    expect(safeURL(url) !== null).toBe(ok);
  });
});

describe('sandbox links', () => {
  const answer = 'Here it is.\n\n[Download project.zip](sandbox:/mnt/data/project.zip)';
  it('show the file Ferry saved, never the raw link', () => {
    const html = renderMarkdown(answer, { files: [{ name: 'project.zip', path: '/data/artifacts/project.zip', verdict: 'verified' }] });
    expect(html).not.toContain('sandbox:');
    expect(html).toContain('data-path="/data/artifacts/project.zip"');
    expect(html).toContain('saved · verified');
  });
  it('say "not retrieved" when Ferry saved nothing of it, and "not saved yet" while the run goes on', () => {
    expect(renderMarkdown(answer)).toContain('not retrieved');
    expect(renderMarkdown(answer)).not.toContain('sandbox:');
    expect(renderMarkdown(answer, { pending: true })).toContain('not saved yet');
  });
  it('escape the file name and the saved path', () => {
    const html = renderMarkdown('[x](sandbox:/mnt/data/%3Cimg%20src%3Dx%3E.zip)', { files: [{ name: '<img src=x>.zip', path: '/a/"><script>' }] });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
  });
  it('drop a reference directive glued to the link', () => {
    const html = renderMarkdown(':chatgpt-content-reference{index="9"}[Download b.zip](sandbox:/mnt/data/b.zip)');
    expect(html).not.toContain('content-reference');
    expect(html).toContain('b.zip');
  });
  it('name the file by the last part of its sandbox path', () => {
    expect(sandboxName('sandbox:/mnt/data/out/app.zip')).toBe('app.zip');
    expect(sandboxName('https://example.com/a.zip')).toBeNull();
  });
});
