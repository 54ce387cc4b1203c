// Architecture rule: src/lib/api/ is the only place that imports the
// generated Wails bindings (frontend/wailsjs), one module per bound struct.
// Everything else goes through lib/api, so a change of a Go signature breaks
// one file, and the UI can be tested without Wails.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const apiDir = join(src, 'lib', 'api') + sep;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return /\.(ts|js|svelte)$/.test(name) ? [p] : [];
  });
}

// Static imports, re-exports and dynamic import() of a path that mentions wailsjs.
const IMPORT = /(?:\bimport\b[^'"`;]*?|\bexport\b[^'"`;]*?\bfrom\s*|\bimport\s*\(\s*)['"`]([^'"`]*wailsjs[^'"`]*)['"`]/g;

function wailsjsImports(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1]);
}

describe('wailsjs imports', () => {
  it('the matcher sees static, re-export and dynamic imports', () => {
    const sample = [
      "import { Get } from '../../wailsjs/go/app/Settings';",
      "import * as R from '../wailsjs/runtime/runtime';",
      "export { Quit } from '../wailsjs/runtime/runtime';",
      "const m = await import('../wailsjs/go/app/System');",
      "import x from './not-bindings';",
    ].join('\n');
    expect(wailsjsImports(sample)).toHaveLength(4);
  });

  it('only src/lib/api imports the generated bindings', () => {
    const all = files(src);
    const offenders = all
      .filter((f) => !f.startsWith(apiDir))
      .flatMap((f) => wailsjsImports(readFileSync(f, 'utf8')).map((spec) => `${relative(root, f)} imports ${spec}`));
    expect(
      offenders,
      'import the bindings through src/lib/api (one module per bound Go struct) instead',
    ).toEqual([]);
    // The rule is only meaningful while lib/api really is where they are used.
    const apiImports = all.filter((f) => f.startsWith(apiDir)).flatMap((f) => wailsjsImports(readFileSync(f, 'utf8')));
    expect(apiImports.length).toBeGreaterThan(0);
  });
});
