// Where text may be cut: never inside a surrogate pair (half an emoji prints as U+FFFD or makes
// the text unencodable), and where the runtime can tell, never inside a grapheme cluster (an
// emoji ZWJ sequence, a flag, a letter and its combining accents).

/** How far around a cut the grapheme boundaries are looked for (UTF-16 code units). */
const WINDOW = 64;

let segmenter: Intl.Segmenter | null | undefined;

function graphemeSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    // A fixed locale: grapheme clusters do not depend on it, and a cut must not depend on the machine.
    segmenter =
      typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('en', { granularity: 'grapheme' }) : null;
  }
  return segmenter;
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** True when `index` falls between the two halves of a surrogate pair. */
export function splitsSurrogatePair(text: string, index: number): boolean {
  return index > 0 && index < text.length && isHigh(text.charCodeAt(index - 1)) && isLow(text.charCodeAt(index));
}

/** How far back a window start is moved to reach an ASCII character (a sure grapheme boundary). */
const ANCHOR_SEARCH = 256;
const isRegionalIndicatorAt = (text: string, index: number): boolean =>
  text.charCodeAt(index) === 0xd83c && text.charCodeAt(index + 1) >= 0xdde6 && text.charCodeAt(index + 1) <= 0xddff;

/**
 * A cut between two regional indicators (the halves of a flag, 🇫🇷) is inside a flag when an odd
 * number of indicators precede it in their run; moved one indicator back or forward. Counting the
 * run is linear in its length, and a shortening makes only a few cuts.
 */
function fixFlagCut(text: string, at: number, direction: 'back' | 'forward'): number {
  if (at < 2 || !isRegionalIndicatorAt(text, at - 2) || !isRegionalIndicatorAt(text, at)) return at;
  let count = 0;
  for (let index = at - 2; index >= 0 && isRegionalIndicatorAt(text, index); index -= 2) count++;
  return count % 2 === 0 ? at : direction === 'back' ? at - 2 : at + 2;
}

/**
 * The nearest place at or before `index` (`'back'`) or at or after it (`'forward'`) where `text`
 * may be cut: a grapheme boundary found within {@link WINDOW} code units, else (a cluster longer
 * than that, as hostile text builds with thousands of combining marks, or no `Intl.Segmenter`) the
 * nearest index that does not split a surrogate pair. Bounded work whatever the text.
 */
export function cutBoundary(text: string, index: number, direction: 'back' | 'forward'): number {
  const at = Math.max(0, Math.min(text.length, Math.floor(index)));
  if (at === 0 || at === text.length) return at;
  const fallback = fixFlagCut(text, splitsSurrogatePair(text, at) ? (direction === 'back' ? at - 1 : at + 1) : at, direction);
  const segments = graphemeSegmenter();
  if (segments === null) return fallback;
  // Start the window on an ASCII character when one is near: a boundary is always before one, so
  // the clusters found after it are the text's own (not ones made up by starting mid-cluster).
  let start = Math.max(0, at - WINDOW);
  let anchored = start === 0;
  for (let back = start; back > 0 && back >= start - ANCHOR_SEARCH; back--) {
    if (text.charCodeAt(back) < 0x80 && text.charCodeAt(back) !== 0x0a) {
      start = back;
      anchored = true;
      break;
    }
  }
  const end = Math.min(text.length, at + WINDOW);
  let best = -1;
  for (const { index: offset } of segments.segment(text.slice(start, end))) {
    const boundary = start + offset;
    // The window's own start is a real boundary only on an ASCII anchor (or the text's start).
    if (offset === 0 && !anchored) continue;
    if (direction === 'back') {
      if (boundary > at) break;
      best = boundary;
    } else if (boundary >= at) {
      best = boundary;
      break;
    }
  }
  if (direction === 'forward' && best === -1 && end === text.length) best = text.length;
  return best === -1 ? fallback : fixFlagCut(text, best, direction);
}

/** `text` cut to at most `length` code units at a boundary (see {@link cutBoundary}). */
export function headOf(text: string, length: number): string {
  if (text.length <= length) return text;
  return text.slice(0, cutBoundary(text, length, 'back'));
}
