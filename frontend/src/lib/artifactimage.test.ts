import { describe, expect, it } from 'vitest';
import { dragType, imageFacts, isImage, mayPreview, noun, typeLabel } from './artifactimage';

describe('what an image card says', () => {
  it('an image tells its pixels and its type', () => {
    expect(imageFacts({ kind: 'image', mime: 'image/png', width: 1024, height: 768 })).toBe('1024 × 768 px · PNG');
    expect(imageFacts({ kind: 'image', mime: 'image/webp', width: 512, height: 512 })).toBe('512 × 512 px · WebP');
  });

  it('an image whose bytes are no image says so', () => {
    expect(imageFacts({ kind: 'image' })).toBe('not a readable image');
    expect(imageFacts({ kind: 'image', mime: 'text/html', width: 1, height: 1 })).toBe('not a readable image');
  });

  it('a zip says nothing of pixels', () => {
    expect(imageFacts({ mime: undefined })).toBe('');
    expect(imageFacts({ kind: '' })).toBe('');
  });

  it.each([
    ['image/png', 'PNG'],
    ['image/jpeg', 'JPEG'],
    ['image/gif', 'GIF'],
    ['image/webp', 'WebP'],
    ['application/zip', ''],
    [undefined, ''],
  ])('the type %s reads %s', (mime, label) => {
    expect(typeLabel(mime)).toBe(label);
  });

  it('an image is called an image, a zip a zip', () => {
    expect(noun({ kind: 'image' })).toBe('image');
    expect(noun({})).toBe('zip');
    expect(isImage({ kind: 'image' })).toBe(true);
    expect(isImage({})).toBe(false);
  });
});

describe('previews', () => {
  it('only a verified image has one', () => {
    expect(mayPreview({ kind: 'image', status: 'verified' })).toBe(true);
    for (const status of ['unverified', 'quarantined']) expect(mayPreview({ kind: 'image', status })).toBe(false);
    expect(mayPreview({ status: 'verified' })).toBe(false);
  });
});

describe('drag type', () => {
  it('an image is dragged as its own type, a zip as a zip', () => {
    expect(dragType({ kind: 'image', mime: 'image/jpeg' })).toBe('image/jpeg');
    expect(dragType({})).toBe('application/zip');
  });

  it('an image of no known type is never dragged under a type its bytes are not', () => {
    expect(dragType({ kind: 'image', mime: 'text/html' })).toBe('application/octet-stream');
  });
});
