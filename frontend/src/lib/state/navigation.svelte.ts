// Which view the shell shows.

import { VIEWS, viewIndex, type ViewId } from '../views';

export class Navigation {
  current = $state<ViewId>('tabs');
  /** welcome shows the Get started view over the current one, until a view is chosen. */
  welcome = $state(false);
  /** chosen says the user picked a view since the start (the Get started view then does not cover it). */
  chosen = false;

  /** index is the current view's sidebar position. */
  get index(): number {
    return viewIndex(this.current);
  }

  go(id: ViewId): void {
    this.current = id;
    this.welcome = false;
    this.chosen = true;
  }

  goIndex(i: number): void {
    const v = VIEWS[i];
    if (!v) return;
    this.current = v.id;
    this.welcome = false;
    this.chosen = true;
  }
}

export const navigation = new Navigation();
