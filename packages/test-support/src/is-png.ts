/** The first eight bytes of every PNG file, in hex. */
export const PNG_SIGNATURE = '89504e470d0a1a0a';

/** Whether base64 data starts with the PNG signature (the fixtures' images are 1×1 PNGs). */
export function isPng(base64: string): boolean {
  return Buffer.from(base64, 'base64').subarray(0, 8).toString('hex') === PNG_SIGNATURE;
}
