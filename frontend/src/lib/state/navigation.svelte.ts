// Which view the shell shows.

import { VIEWS, viewIndex, type ViewId } from '../views';

export class Navigation {
  current = $state<ViewId>('tabs');

  /** index is the current view's sidebar position. */
  get index(): number {
    return viewIndex(this.current);
  }

  go(id: ViewId): void {
    this.current = id;
  }

  goIndex(i: number): void {
    const v = VIEWS[i];
    if (v) this.current = v.id;
  }
}

export const navigation = new Navigation();
