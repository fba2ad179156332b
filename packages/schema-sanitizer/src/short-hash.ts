/**
 * FNV-1a 32-bit hash of `value` in base 36, padded to 7 characters: short, stable across
 * runs and platforms, no crypto needed. Used to keep colliding tool names apart.
 */
export function shortHash(value: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < value.length; index++) {
    hash ^= value.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0');
}
