// The pure part of an agent's allowed folders (Settings → Agents): adding
// and removing a folder in the list the gateway holds the agent's files to.

/** sameFolder compares two absolute paths, ignoring a trailing slash. */
function sameFolder(a: string, b: string): boolean {
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  return trim(a) === trim(b);
}

/** withFolder is roots with dir appended, unless it is already there. */
export function withFolder(roots: readonly string[], dir: string): string[] {
  return roots.some((r) => sameFolder(r, dir)) ? [...roots] : [...roots, dir];
}

/** withoutFolder is roots without dir, the others in their order. */
export function withoutFolder(roots: readonly string[], dir: string): string[] {
  return roots.filter((r) => !sameFolder(r, dir));
}
