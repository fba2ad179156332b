import { byteSource, bytesEqual, readUintBE, readUintLE, type ByteSource } from './byte-source.js';

/** How long a clip plays, read from its header. */
export interface AudioDuration {
  /** The format its bytes show. */
  readonly format: 'wav' | 'flac' | 'mp3';
  /** Seconds (MP3: from the first frame's bit rate, exact for constant bit rate). */
  readonly seconds: number;
}

/** Most RIFF chunks walked in a WAV file before `data`. */
const MAX_WAV_CHUNKS = 64;
/** Bytes searched for an MP3 frame header after the ID3 tag. */
const MAX_MP3_SYNC_SEARCH = 4096;

function wav(source: ByteSource): AudioDuration | undefined {
  if (!bytesEqual(source, 0, 'RIFF') || !bytesEqual(source, 8, 'WAVE')) return undefined;
  let offset = 12;
  let byteRate = -1;
  for (let chunk = 0; chunk < MAX_WAV_CHUNKS; chunk++) {
    const chunkSize = readUintLE(source, offset + 4, 4);
    if (chunkSize < 0) return undefined;
    if (bytesEqual(source, offset, 'fmt ')) byteRate = readUintLE(source, offset + 16, 4);
    if (bytesEqual(source, offset, 'data')) {
      if (byteRate <= 0) return undefined;
      // A streamed WAV says 0xFFFFFFFF (or too much): count what is actually there.
      const available = Math.max(0, source.length - (offset + 8));
      return { format: 'wav', seconds: Math.min(chunkSize, available) / byteRate };
    }
    offset += 8 + chunkSize + (chunkSize % 2);
  }
  return undefined;
}

function flac(source: ByteSource): AudioDuration | undefined {
  // "fLaC", then the STREAMINFO block (type 0, 34 bytes): sample rate (20 bits) and total samples (36 bits).
  if (!bytesEqual(source, 0, 'fLaC') || ((source.at(4) as number) & 0x7f) !== 0) return undefined;
  const rateBits = readUintBE(source, 18, 3);
  const samplesHigh = source.at(21);
  const samplesLow = readUintBE(source, 22, 4);
  if (rateBits < 0 || samplesHigh < 0 || samplesLow < 0) return undefined;
  const sampleRate = Math.floor(rateBits / 16);
  const samples = (samplesHigh & 0x0f) * 2 ** 32 + samplesLow;
  return sampleRate > 0 && samples > 0 ? { format: 'flac', seconds: samples / sampleRate } : undefined;
}

/** Bit rates (kbit/s) of MPEG-1 Layer III and of MPEG-2/2.5 Layer III, by the header's index. */
const MPEG1_LAYER3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_LAYER3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

function mp3(source: ByteSource): AudioDuration | undefined {
  let offset = 0;
  if (bytesEqual(source, 0, 'ID3')) {
    // The tag's size is four 7-bit bytes; a footer adds 10 more.
    const bytes = [6, 7, 8, 9].map((index) => source.at(index));
    if (bytes.some((byte) => byte < 0 || byte > 0x7f)) return undefined;
    const tagSize = bytes.reduce((total, byte) => total * 128 + byte, 0);
    offset = 10 + tagSize + (((source.at(5) as number) & 0x10) !== 0 ? 10 : 0);
  }
  for (let search = 0; search < MAX_MP3_SYNC_SEARCH; search++, offset++) {
    const first = source.at(offset);
    if (first < 0) return undefined;
    const second = source.at(offset + 1);
    // Frame sync (11 bits set) and Layer III (bits 01).
    if (first !== 0xff || (second & 0xe0) !== 0xe0 || (second & 0x06) !== 0x02) continue;
    const version = (second >> 3) & 0x03; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    if (version === 1) continue;
    const third = source.at(offset + 2);
    if (third < 0) return undefined;
    const kbps = (version === 3 ? MPEG1_LAYER3 : MPEG2_LAYER3)[third >> 4];
    if (kbps === undefined || kbps === 0) continue;
    return { format: 'mp3', seconds: ((source.length - offset) * 8) / (kbps * 1000) };
  }
  return undefined;
}

/**
 * Read how long a WAV, FLAC or MP3 clip plays from its header, without decoding it (bounded: at
 * most 64 WAV chunk headers, or 4 KB searched for an MP3 frame). MP3 durations assume a constant
 * bit rate (the first frame's). `undefined` for other formats or a malformed header.
 *
 * @example
 * ```ts
 * readAudioDuration(part.data); // { format: 'wav', seconds: 12.5 }
 * ```
 */
export function readAudioDuration(data: string | Uint8Array): AudioDuration | undefined {
  const source = byteSource(data);
  return wav(source) ?? flac(source) ?? mp3(source);
}
