// A request to show one zip in Artifacts: from the zip line of a run's
// answer, which may be clicked before the Artifacts view exists.

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
