// The image check of integration icons and previews: by the bytes' signature, never by a name.
import { describe, expect, it } from 'vitest';
import { readImage, sniffImage } from '../server/integrations/images.js';

const bytes = (...parts: (number[] | string)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('integration images', () => {
  it('recognizes PNG, JPEG, GIF, WebP and SVG by their signature', () => {
    expect(sniffImage(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest'))?.contentType).toBe('image/png');
    expect(sniffImage(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))?.contentType).toBe('image/jpeg');
    expect(sniffImage(bytes('GIF87a', [1, 0, 1, 0]))?.contentType).toBe('image/gif');
    expect(sniffImage(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))?.contentType).toBe('image/webp');
    expect(sniffImage(bytes('\uFEFF<!-- logo --><svg viewBox="0 0 1 1"></svg>'))?.contentType).toBe('image/svg+xml');
    expect(sniffImage(bytes('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg/>'))?.contentType).toBe('image/svg+xml');
  });

  it('refuses other bytes, naming the field', () => {
    expect(sniffImage(bytes('RIFF', [0, 0, 0, 0], 'WAVE'))).toBeUndefined();
    expect(sniffImage(bytes('<html><svg></svg></html>'))).toBeUndefined();
    expect(sniffImage(bytes('%PDF-1.7'))).toBeUndefined();
    expect(() => readImage('', 'body.icon')).toThrow(/body\.icon: not a PNG, JPEG, GIF, WebP or SVG image/);
    expect(() => readImage(Buffer.from('icon.png').toString('base64'), 'body.previewImages.0')).toThrow(/body\.previewImages\.0/);
  });
});
