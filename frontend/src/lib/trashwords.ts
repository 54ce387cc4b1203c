/**
 * What the desktop's trash is called where the window runs: the Recycle
 * Bin on Windows (WebView2 reports a Win platform), the trash elsewhere,
 * which a file manager restores from. The platform is the page's own
 * (navigator), so no call to Go is needed for a toast.
 */
export interface TrashWords {
  /** the trash as a noun after "moved to the" */
  name: string;
  /** how the user gets the file back */
  restore: string;
}

export function trashWords(platform: string): TrashWords {
  if (/^win/i.test(platform)) {
    return { name: 'Recycle Bin', restore: 'Restore it from the Recycle Bin on your desktop.' };
  }
  return { name: 'trash', restore: 'Restore it from the trash in your file manager.' };
}

/** The page's platform: navigator.platform, else its user agent. */
export function pagePlatform(): string {
  if (typeof navigator === 'undefined') return '';
  return navigator.platform || navigator.userAgent || '';
}
