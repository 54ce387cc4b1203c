// The tabs a run stopped at (tab_ambiguous) as the picker shows them: each
// candidate of the envelope with what the Tabs view knows of it now.

import type { TabCandidate } from './envelope';

/** TabLike is the part of a Tabs view row the picker reads. */
export interface TabLike {
  targetId: string;
  title: string;
  url: string;
  conversation?: string;
  state: string;
}

/** TabChoice is one tab offered to pick. */
export interface TabChoice {
  targetId: string;
  title: string;
  /** conversation is the part of the address after the site's own ("" for a new chat). */
  conversation: string;
  /** state is the tab's readiness as the Tabs view has it ("" when it is not listed there). */
  state: string;
  /** gone is true when the tab is no longer open. */
  gone: boolean;
}

const STATE_WORDS: Record<string, string> = {
  ready: 'Ready',
  login: 'Not logged in',
  interstitial: 'A check is in the way',
  stale: 'Not answering',
  other: 'Elsewhere',
};

/** stateWords says a tab's readiness in words. */
export function stateWords(state: string): string {
  return STATE_WORDS[state] ?? (state || 'Unknown');
}

/** conversationOf is the address's path after its host ("" on the start page). */
function conversationOf(url: string): string {
  try {
    const p = new URL(url).pathname.replace(/^\/+|\/+$/g, '');
    return p;
  } catch {
    return '';
  }
}

/**
 * tabChoices joins the envelope's candidates with the open tabs (when the
 * list could be read: tabs null leaves them as the envelope names them).
 */
export function tabChoices(candidates: TabCandidate[], tabs: TabLike[] | null): TabChoice[] {
  return candidates.map((c) => {
    const t = tabs?.find((x) => x.targetId === c.targetId);
    return {
      targetId: c.targetId,
      // The envelope names the tab as the user knows it (its conversation's
      // title); the tab's own title only when it has none.
      title: c.title || t?.title || 'Untitled',
      conversation: t ? (t.conversation ?? '') : conversationOf(c.url),
      state: t?.state ?? '',
      gone: tabs !== null && !t,
    };
  });
}
