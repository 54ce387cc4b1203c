// A request to show one run in History: from a click on a notification or a
// tray entry, which reach the window before the History view may exist.

export class ShowRunRequest {
  /** The session id to show; "" when nothing waits. */
  id = $state('');

  request(id: string): void {
    this.id = id;
  }

  /** take returns the waiting id and clears it. */
  take(): string {
    const id = this.id;
    this.id = '';
    return id;
  }
}

export const showRunRequest = new ShowRunRequest();
