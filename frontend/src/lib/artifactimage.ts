// What the Artifacts view says of a generated image or a research report
// beside a zip: an image's type and size in pixels, a report's header and
// sources, whether a preview may be asked for, and the type a drag-out
// carries.

/** The fields of a library item (record.ArtifactItem) these read. */
export interface ImageLike {
  kind?: string;
  mime?: string;
  width?: number;
  height?: number;
  status: string;
  header?: string;
  sources?: number;
}

/** isImage reports whether an item is a generated image (kind "image"), not a zip. */
export const isImage = (item: Pick<ImageLike, 'kind'>): boolean => item.kind === 'image';

const TYPES: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' };

/** typeLabel names an image's type as a user knows it: PNG, JPEG, GIF, WebP; "" when its bytes are no image Ferry knows. */
export function typeLabel(mime: string | undefined): string {
  return TYPES[mime ?? ''] ?? '';
}

/**
 * imageFacts is what an image's card says of its bytes: "1024 × 768 px · PNG",
 * or "not a readable image" when they are none (a changed or damaged file);
 * "" for a zip.
 */
export function imageFacts(item: Pick<ImageLike, 'kind' | 'mime' | 'width' | 'height'>): string {
  if (!isImage(item)) return '';
  const type = typeLabel(item.mime);
  if (!type || !item.width || !item.height) return 'not a readable image';
  return `${item.width} × ${item.height} px · ${type}`;
}

/** mayPreview reports whether a preview may be asked for: verified images only (the app makes it from the bytes the library verified). */
export function mayPreview(item: Pick<ImageLike, 'kind' | 'status'>): boolean {
  return isImage(item) && item.status === 'verified';
}

/** isReport reports whether an item is a research report (kind "report"). */
export const isReport = (item: Pick<ImageLike, 'kind'>): boolean => item.kind === 'report';

/**
 * reportFacts is what a report's card says of it: the site's header line
 * and the sources its research read ("Research completed in 12m · 19
 * citations · 328 searches · 120 sources"); "" for anything else.
 */
export function reportFacts(item: Pick<ImageLike, 'kind' | 'header' | 'sources'>): string {
  if (!isReport(item)) return '';
  const parts = [item.header || 'Research report'];
  if (item.sources) parts.push(`${item.sources} ${item.sources === 1 ? 'source' : 'sources'}`);
  return parts.join(' · ');
}

/** dragType is the MIME type a drag-out's DownloadURL names: a zip's, a report's Markdown, an image's own, bytes for an image of no known type. */
export function dragType(item: Pick<ImageLike, 'kind' | 'mime'>): string {
  if (isReport(item)) return 'text/markdown';
  if (!isImage(item)) return 'application/zip';
  return typeLabel(item.mime) ? item.mime! : 'application/octet-stream';
}

/** noun is what the user calls an item in a message: "image", "report" or "zip". */
export const noun = (item: Pick<ImageLike, 'kind'>): string => (isImage(item) ? 'image' : isReport(item) ? 'report' : 'zip');
