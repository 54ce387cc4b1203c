import { describe, expect, it } from 'vitest';
import { dragType, imageFacts, isImage, isReport, mayPreview, noun, reportFacts, typeLabel } from './artifactimage';

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

describe('what a report card says', () => {
  it('a report tells its header and its sources', () => {
    expect(reportFacts({ kind: 'report', header: 'Research completed in 12m · 19 citations · 328 searches', sources: 120 })).toBe(
      'Research completed in 12m · 19 citations · 328 searches · 120 sources',
    );
    expect(reportFacts({ kind: 'report', sources: 1 })).toBe('Research report · 1 source');
  });

  it('anything else says nothing of a report', () => {
    expect(reportFacts({ kind: 'image', header: 'x' })).toBe('');
    expect(reportFacts({})).toBe('');
  });

  it('a report is called a report, dragged as Markdown, and has no preview', () => {
    expect(isReport({ kind: 'report' })).toBe(true);
    expect(noun({ kind: 'report' })).toBe('report');
    expect(dragType({ kind: 'report', mime: 'text/markdown' })).toBe('text/markdown');
    expect(mayPreview({ kind: 'report', status: 'verified' })).toBe(false);
  });
});
