import { byteSource, bytesEqual, readUintBE, readUintLE, type ByteSource } from './byte-source.js';

/** The pixel size of an image, read from its header. */
export interface ImageSize {
  /** The format its bytes show (whatever MIME type the server claimed). */
  readonly format: 'png' | 'jpeg' | 'gif' | 'webp';
  /** Width in pixels (at least 1). */
  readonly width: number;
  /** Height in pixels (at least 1). */
  readonly height: number;
}

/** Most JPEG segments walked before the frame header (real files have a few dozen). */
const MAX_JPEG_SEGMENTS = 1024;
/** Most `0xFF` fill bytes skipped before one JPEG marker. */
const MAX_JPEG_FILL = 64;

function size(format: ImageSize['format'], width: number, height: number): ImageSize | undefined {
  return width >= 1 && height >= 1 ? { format, width, height } : undefined;
}

function png(source: ByteSource): ImageSize | undefined {
  // Signature, then the IHDR chunk (length, "IHDR", width, height as 32-bit big-endian).
  if (!bytesEqual(source, 0, '\x89PNG\r\n\x1a\n') || !bytesEqual(source, 12, 'IHDR')) return undefined;
  return size('png', readUintBE(source, 16, 4), readUintBE(source, 20, 4));
}

function gif(source: ByteSource): ImageSize | undefined {
  if (!bytesEqual(source, 0, 'GIF87a') && !bytesEqual(source, 0, 'GIF89a')) return undefined;
  // The logical screen size, 16-bit little-endian.
  return size('gif', readUintLE(source, 6, 2), readUintLE(source, 8, 2));
}

function webp(source: ByteSource): ImageSize | undefined {
  if (!bytesEqual(source, 0, 'RIFF') || !bytesEqual(source, 8, 'WEBP')) return undefined;
  if (bytesEqual(source, 12, 'VP8X')) {
    // Extended: canvas width and height minus one, 24-bit little-endian.
    const width = readUintLE(source, 24, 3);
    const height = readUintLE(source, 27, 3);
    return width < 0 || height < 0 ? undefined : size('webp', width + 1, height + 1);
  }
  if (bytesEqual(source, 12, 'VP8L')) {
    // Lossless: a 0x2F signature, then 14 bits of width minus one and 14 of height minus one.
    if (source.at(20) !== 0x2f) return undefined;
    const bits = readUintLE(source, 21, 4);
    if (bits < 0) return undefined;
    return size('webp', (bits & 0x3fff) + 1, (Math.floor(bits / 0x4000) & 0x3fff) + 1);
  }
  if (bytesEqual(source, 12, 'VP8 ')) {
    // Lossy: a key frame's start code 9D 01 2A, then 14-bit width and height.
    if (source.at(23) !== 0x9d || source.at(24) !== 0x01 || source.at(25) !== 0x2a) return undefined;
    const width = readUintLE(source, 26, 2);
    const height = readUintLE(source, 28, 2);
    return width < 0 || height < 0 ? undefined : size('webp', width & 0x3fff, height & 0x3fff);
  }
  return undefined;
}

/** Start-of-frame markers (SOF0–SOF15 except DHT C4, JPG C8 and DAC CC), which carry the size. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpeg(source: ByteSource): ImageSize | undefined {
  if (source.at(0) !== 0xff || source.at(1) !== 0xd8) return undefined;
  let offset = 2;
  for (let segment = 0; segment < MAX_JPEG_SEGMENTS; segment++) {
    if (source.at(offset) !== 0xff) return undefined;
    let fill = 0;
    while (source.at(offset + 1) === 0xff) {
      if (++fill > MAX_JPEG_FILL) return undefined;
      offset++;
    }
    const marker = source.at(offset + 1);
    if (marker < 0) return undefined;
    // Markers without a length: TEM, RST0–7, a second SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
      continue;
    }
    // End of image, or the scan data starts: no frame header came first.
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = readUintBE(source, offset + 2, 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) return size('jpeg', readUintBE(source, offset + 7, 2), readUintBE(source, offset + 5, 2));
    offset += 2 + length;
  }
  return undefined;
}

/**
 * Read the width and height of a PNG, JPEG, GIF or WebP image from its header, without decoding
 * the image or all of its base64. The format is told by the bytes, never by the MIME type a server
 * claimed. Bounded work on hostile bytes: a fixed number of bytes for PNG, GIF and WebP; for JPEG
 * at most 1,024 segment headers (four bytes each, jumping over the segments' contents). Returns
 * `undefined` for anything else, a truncated or malformed header, a zero size, or base64 with line
 * breaks or stray characters before the size.
 *
 * @example
 * ```ts
 * readImageSize(part.data); // { format: 'png', width: 1280, height: 720 }
 * ```
 */
export function readImageSize(data: string | Uint8Array): ImageSize | undefined {
  const source = byteSource(data);
  return png(source) ?? jpeg(source) ?? gif(source) ?? webp(source);
}
