// A request to show one zip in Artifacts: from the zip line of a run's
// answer, which may be clicked before the Artifacts view exists.

import { navigation } from './navigation.svelte';

export class ShowArtifactRequest {
  /** The zip's path to show; "" when nothing waits. */
  path = $state('');

  request(path: string): void {
    this.path = path;
  }

  /** take returns the waiting path and clears it. */
  take(): string {
    const p = this.path;
    this.path = '';
    return p;
  }
}

export const showArtifactRequest = new ShowArtifactRequest();

/**
 * showSavedFile is the click handler of a rendered answer: a click on a
 * saved-file chip (lib/markdown) shows that file in Artifacts.
 */
export function showSavedFile(e: MouseEvent): void {
  const chip = (e.target as Element | null)?.closest?.('button.saved-file[data-path]');
  const path = chip?.getAttribute('data-path');
  if (!path) return;
  showArtifactRequest.request(path);
  navigation.go('artifacts');
}
