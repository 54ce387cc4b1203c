// What the Artifacts view says of a generated image beside a zip: its type
// and size in pixels, whether a preview may be asked for, and the type its
// drag-out carries.

/** The fields of a library item (record.ArtifactItem) these read. */
export interface ImageLike {
  kind?: string;
  mime?: string;
  width?: number;
  height?: number;
  status: string;
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

/** dragType is the MIME type a drag-out's DownloadURL names: a zip's, an image's own, bytes for an image of no known type. */
export function dragType(item: Pick<ImageLike, 'kind' | 'mime'>): string {
  if (!isImage(item)) return 'application/zip';
  return typeLabel(item.mime) ? item.mime! : 'application/octet-stream';
}

/** noun is what the user calls an item in a message: "image" or "zip". */
export const noun = (item: Pick<ImageLike, 'kind'>): string => (isImage(item) ? 'image' : 'zip');
