// The shell's views, in sidebar order (Ctrl+1 is the first).

export type ViewId = 'tabs' | 'compose' | 'history' | 'artifacts' | 'settings';

export type IconName =
  | 'tabs'
  | 'compose'
  | 'history'
  | 'artifacts'
  | 'settings';

export interface ViewDef {
  id: ViewId;
  /** Sidebar label. */
  label: string;
  /** Heading of the view. */
  title: string;
  /** One line under the heading. */
  subtitle: string;
  icon: IconName;
}

export const VIEWS: readonly ViewDef[] = [
  { id: 'tabs', label: 'Tabs', title: 'Tabs', subtitle: 'The browser Ferry drives and the chat sites open in it', icon: 'tabs' },
  { id: 'compose', label: 'Compose', title: 'Compose', subtitle: 'Write a prompt and send it to one site or several', icon: 'compose' },
  { id: 'history', label: 'History', title: 'History', subtitle: 'Every run Ferry made, searchable as you type', icon: 'history' },
  { id: 'artifacts', label: 'Artifacts', title: 'Artifacts', subtitle: 'Files the sites produced, verified before you use them', icon: 'artifacts' },
  { id: 'settings', label: 'Settings', title: 'Settings', subtitle: 'Browser, sites, quick prompt, gateway clients, and where Ferry keeps its data', icon: 'settings' },
];

/** viewIndex returns the sidebar position of id, or -1. */
export function viewIndex(id: string): number {
  return VIEWS.findIndex((v) => v.id === id);
}
