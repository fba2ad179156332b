// Images and audio by each vendor's published rule, their sizes read from the bytes' headers:
// real headers of each format, and hostile ones (truncated, looping, absurd, not base64).
import { describe, expect, it } from 'vitest';
import type { InlineDataPart } from '@toolhost/contract';
import {
  createTokenEstimator,
  defaultTokenEstimator,
  estimateAudioTokens,
  estimateImageTokens,
  readAudioDuration,
  readImageSize,
} from './index.js';

type InlineDataPartLike = InlineDataPart;

function toBase64(bytes: number[] | Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 8192) binary += String.fromCharCode(...bytes.slice(index, index + 8192));
  return btoa(binary);
}
const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));
const be16 = (value: number): number[] => [(value >> 8) & 255, value & 255];
const be32 = (value: number): number[] => [(value >>> 24) & 255, (value >> 16) & 255, (value >> 8) & 255, value & 255];
const le16 = (value: number): number[] => [value & 255, (value >> 8) & 255];
const le24 = (value: number): number[] => [value & 255, (value >> 8) & 255, (value >> 16) & 255];
const le32 = (value: number): number[] => [value & 255, (value >> 8) & 255, (value >> 16) & 255, (value >>> 24) & 255];

/** A 1×1 PNG, as a server would send it. */
const REAL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function png(width: number, height: number): string {
  return toBase64([
    ...ascii('\x89PNG\r\n\x1a\n'),
    ...be32(13),
    ...ascii('IHDR'),
    ...be32(width),
    ...be32(height),
    8,
    6,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
}

function jpeg(width: number, height: number, options: { exifBytes?: number; sof?: number } = {}): string {
  const exif = options.exifBytes ?? 0;
  const app1 = exif > 0 ? [0xff, 0xe1, ...be16(exif + 2), ...new Array<number>(exif).fill(0x45)] : [];
  return toBase64([
    0xff,
    0xd8,
    0xff,
    0xe0,
    ...be16(16),
    ...ascii('JFIF\0'),
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    ...app1,
    0xff,
    0xdb,
    ...be16(4),
    0,
    0,
    0xff,
    options.sof ?? 0xc0,
    ...be16(17),
    8,
    ...be16(height),
    ...be16(width),
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
    0xff,
    0xda,
    0,
    8,
  ]);
}

const gif = (width: number, height: number): string => toBase64([...ascii('GIF89a'), ...le16(width), ...le16(height), 0, 0, 0]);
const webpRiff = (chunk: number[]): string => toBase64([...ascii('RIFF'), ...le32(4 + chunk.length), ...ascii('WEBP'), ...chunk]);
const webpExtended = (width: number, height: number): string =>
  webpRiff([...ascii('VP8X'), ...le32(10), 0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]);
const webpLossless = (width: number, height: number): string => {
  const bits = (width - 1) | ((height - 1) << 14);
  return webpRiff([...ascii('VP8L'), ...le32(5), 0x2f, ...le32(bits)]);
};
const webpLossy = (width: number, height: number): string =>
  webpRiff([...ascii('VP8 '), ...le32(10), 0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(width), ...le16(height)]);

describe('readImageSize', () => {
  it.each([
    ['a real 1×1 PNG', REAL_PNG, { format: 'png', width: 1, height: 1 }],
    ['PNG', png(1280, 720), { format: 'png', width: 1280, height: 720 }],
    ['JPEG (baseline)', jpeg(4032, 3024), { format: 'jpeg', width: 4032, height: 3024 }],
    [
      'JPEG (progressive, after a 60 KB EXIF segment)',
      jpeg(800, 600, { exifBytes: 60_000, sof: 0xc2 }),
      { format: 'jpeg', width: 800, height: 600 },
    ],
    ['GIF', gif(320, 200), { format: 'gif', width: 320, height: 200 }],
    ['WebP extended', webpExtended(1920, 1080), { format: 'webp', width: 1920, height: 1080 }],
    ['WebP lossless', webpLossless(640, 480), { format: 'webp', width: 640, height: 480 }],
    ['WebP lossy', webpLossy(1024, 768), { format: 'webp', width: 1024, height: 768 }],
  ])('reads %s', (_name, data, expected) => {
    expect(readImageSize(data)).toEqual(expected);
  });

  it('reads raw bytes as well as base64, and never trusts the MIME type (the bytes decide)', () => {
    const bytes = Uint8Array.from(atob(png(3, 4)), (char) => char.charCodeAt(0));
    expect(readImageSize(bytes)).toEqual({ format: 'png', width: 3, height: 4 });
  });

  it.each([
    ['empty data', ''],
    ['not base64', '!!!! this is not base64 at all ####'],
    ['base64 with line breaks before the size', `${png(100, 100).slice(0, 8)}\r\n${png(100, 100).slice(8)}`],
    ['a truncated PNG', png(100, 100).slice(0, 20)],
    ['a zero-size PNG', png(0, 0)],
    ['a zero-height JPEG', jpeg(100, 0)],
    ['a JPEG whose scan starts before any frame header', toBase64([0xff, 0xd8, 0xff, 0xda, 0, 8, 1, 2, 3, 4, 5, 6])],
    ['a JPEG with a segment length below 2', toBase64([0xff, 0xd8, 0xff, 0xe0, 0, 1, 0, 0])],
    ['a JPEG of endless fill bytes', toBase64([0xff, 0xd8, ...new Array<number>(5000).fill(0xff)])],
    [
      'a JPEG of 100,000 empty segments (never reaching a frame)',
      toBase64([0xff, 0xd8, ...Array.from({ length: 100_000 }, () => [0xff, 0xfe, 0, 2]).flat()]),
    ],
    ['a WebP with an unknown chunk', webpRiff([...ascii('VP9 '), ...le32(4), 0, 0, 0, 0])],
    ['text claiming to be an image', btoa('<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ])('returns undefined for %s, with bounded work', (_name, data) => {
    expect(readImageSize(data)).toBeUndefined();
  });

  it('reads the size of a 10 MB image from its first bytes only, and gives absurd sizes as they are', () => {
    const header = png(65_535, 65_535);
    const data = header.slice(0, 32) + 'A'.repeat(10 * 1024 * 1024);
    expect(readImageSize(data)).toEqual({ format: 'png', width: 65_535, height: 65_535 });
  });
});

describe('estimateImageTokens', () => {
  it("follows Anthropic's rule: width × height / 750, long edge at most 1,568 px, about 1,600 tokens at most", () => {
    expect(estimateImageTokens({ width: 200, height: 200 }, 'anthropic')).toBe(54);
    expect(estimateImageTokens({ width: 1000, height: 1000 }, 'anthropic')).toBe(1334);
    expect(estimateImageTokens({ width: 1092, height: 1092 }, 'anthropic')).toBe(1590);
    expect(estimateImageTokens({ width: 4000, height: 3000 }, 'anthropic')).toBe(1600);
    expect(estimateImageTokens({ width: 3136, height: 784 }, 'anthropic')).toBe(820);
    expect(estimateImageTokens({ width: 4000, height: 3000 }, 'anthropic', { anthropicProfile: 'high-resolution' })).toBe(4784);
    expect(estimateImageTokens(undefined, 'anthropic')).toBe(1600);
  });

  it("follows OpenAI's high-detail tiles: fit 2048, shortest side 768, 170 per 512-px tile plus 85", () => {
    expect(estimateImageTokens({ width: 1024, height: 1024 }, 'openai')).toBe(765);
    expect(estimateImageTokens({ width: 2048, height: 4096 }, 'openai')).toBe(1105);
    expect(estimateImageTokens({ width: 512, height: 512 }, 'openai')).toBe(255);
    expect(estimateImageTokens({ width: 4096, height: 8192 }, 'openai', { openaiDetail: 'low' })).toBe(85);
    expect(estimateImageTokens(undefined, 'openai')).toBe(1445);
  });

  it("follows Gemini's rule: 258 up to 384 px, else 258 per 768-px tile", () => {
    expect(estimateImageTokens({ width: 384, height: 384 }, 'gemini')).toBe(258);
    expect(estimateImageTokens({ width: 600, height: 400 }, 'gemini')).toBe(258);
    expect(estimateImageTokens({ width: 1024, height: 1024 }, 'gemini')).toBe(1032);
    expect(estimateImageTokens({ width: 1920, height: 1080 }, 'gemini')).toBe(1548);
  });

  it('counts audio at 32 tokens a second', () => {
    expect(estimateAudioTokens(60)).toBe(1920);
    expect(estimateAudioTokens(0.5)).toBe(16);
    expect(estimateAudioTokens(Number.NaN)).toBe(0);
  });
});

function wav(seconds: number, sampleRate = 16_000): string {
  const byteRate = sampleRate * 2;
  const dataBytes = Math.round(seconds * byteRate);
  const header = [
    ...ascii('RIFF'),
    ...le32(36 + dataBytes),
    ...ascii('WAVE'),
    ...ascii('LIST'),
    ...le32(4),
    ...ascii('INFO'),
    ...ascii('fmt '),
    ...le32(16),
    ...le16(1),
    ...le16(1),
    ...le32(sampleRate),
    ...le32(byteRate),
    ...le16(2),
    ...le16(16),
    ...ascii('data'),
    ...le32(dataBytes),
  ];
  return toBase64(header) + 'A'.repeat(Math.ceil((dataBytes * 4) / 3 / 4) * 4);
}

function flac(seconds: number, sampleRate = 44_100): string {
  const samples = seconds * sampleRate;
  const info = [
    0x00,
    0x00,
    0x10,
    0x00,
    0x10,
    0,
    0,
    0,
    0,
    0,
    (sampleRate >> 12) & 255,
    (sampleRate >> 4) & 255,
    ((sampleRate & 15) << 4) | (1 << 1) | 0,
    (15 << 4) | Math.floor(samples / 2 ** 32),
    ...be32(samples >>> 0),
    ...new Array<number>(16).fill(0),
  ];
  return toBase64([...ascii('fLaC'), 0x80, 0, 0, 34, ...info]);
}

function mp3(seconds: number): string {
  // An ID3v2 tag of 100 bytes, then MPEG-1 Layer III frames at 128 kbit/s.
  const frameBytes = 417;
  const frames = Math.round((seconds * 128_000) / 8 / frameBytes);
  const frame = [0xff, 0xfb, 0x90, 0x64, ...new Array<number>(frameBytes - 4).fill(0)];
  return toBase64([
    ...ascii('ID3'),
    4,
    0,
    0,
    0,
    0,
    0,
    100,
    ...new Array<number>(100).fill(0),
    ...Array.from({ length: frames }, () => frame).flat(),
  ]);
}

describe('readAudioDuration and the audio estimate', () => {
  it('reads WAV (after other chunks), FLAC and MP3 (after an ID3 tag) durations', () => {
    expect(readAudioDuration(wav(3))?.seconds).toBeCloseTo(3, 3);
    expect(readAudioDuration(wav(3))?.format).toBe('wav');
    expect(readAudioDuration(flac(90))).toEqual({ format: 'flac', seconds: 90 });
    const mp3Duration = readAudioDuration(mp3(2));
    expect(mp3Duration?.format).toBe('mp3');
    expect(mp3Duration?.seconds).toBeGreaterThan(1.9);
    expect(mp3Duration?.seconds).toBeLessThan(2.1);
  });

  it('returns undefined for headers that lie or loop', () => {
    expect(readAudioDuration(toBase64([...ascii('RIFF'), ...le32(0), ...ascii('WAVE'), ...ascii('data'), ...le32(100)]))).toBeUndefined();
    const endless = Array.from({ length: 200 }, () => [...ascii('JUNK'), ...le32(0)]).flat();
    expect(readAudioDuration(toBase64([...ascii('RIFF'), ...le32(0), ...ascii('WAVE'), ...endless]))).toBeUndefined();
    expect(readAudioDuration(toBase64([...ascii('fLaC'), 0x80, 0, 0, 34, ...new Array<number>(34).fill(0)]))).toBeUndefined();
    expect(readAudioDuration(btoa('just some text, not audio'))).toBeUndefined();
  });

  it('prices audio parts by their duration, and unreadable clips by their size', () => {
    const part = (data: string): InlineDataPartLike => ({ type: 'inlineData', mimeType: 'audio/wav', data, source: 'audio' });
    expect(defaultTokenEstimator.media(part(wav(10)))).toBe(320);
    // 8,000 bytes a second when the length cannot be read: 80,000 bytes of unknown audio is 10 s.
    expect(defaultTokenEstimator.media({ ...part('A'.repeat(106_664)), mimeType: 'audio/ogg' })).toBe(320);
  });
});

describe('the estimator on image parts', () => {
  const image = (data: string): InlineDataPartLike => ({ type: 'inlineData', mimeType: 'image/png', data, source: 'image' });

  it("uses the vendor's rule, and without a vendor the largest of the three", () => {
    const photo = image(jpeg(1920, 1080));
    expect(createTokenEstimator({ vendor: 'anthropic' }).media(photo)).toBe(1600);
    expect(createTokenEstimator({ vendor: 'openai' }).media(photo)).toBe(1105);
    expect(createTokenEstimator({ vendor: 'gemini' }).media(photo)).toBe(1548);
    expect(defaultTokenEstimator.media(photo)).toBe(1600);
  });

  it('counts an image whose size cannot be read as a large one, and other blobs as their base64 text', () => {
    expect(defaultTokenEstimator.media(image('not an image'))).toBe(2322);
    expect(
      defaultTokenEstimator.media({ type: 'inlineData', mimeType: 'application/pdf', data: 'A'.repeat(4000), source: 'resource' }),
    ).toBe(1000);
  });
});
