// The tools the History view's filter offers, and how a run's tool reads
// on its chip: the tools of the sites' composers (service.SiteInfo.tools),
// and "none" for the runs that asked for no tool (backend record.NoTool).

/** NO_TOOL is the filter's value for the runs that asked for no tool. */
export const NO_TOOL = 'none';

/** toolsOf lists the tools of the sites, sorted, each once. */
export function toolsOf(sites: readonly { tools?: string[] }[]): string[] {
  return [...new Set(sites.flatMap((s) => s.tools ?? []))].sort();
}

/** toolLabel is a tool's name in words: "web-search" reads "Web search". */
export function toolLabel(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : '';
}
