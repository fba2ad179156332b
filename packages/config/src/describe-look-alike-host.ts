import { domainToUnicode } from 'node:url';
import { escapeControlText } from '@toolhost/contract';

/** Scripts told apart in a host name label; letters of any other script count as one "other" script. */
const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Coptic', /\p{Script=Coptic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Bopomofo', /\p{Script=Bopomofo}/u],
];

/** Script combinations that are one writing system (Japanese, Korean, Chinese), not a mix. */
const ONE_WRITING_SYSTEM: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Han', 'Hiragana', 'Katakana']),
  new Set(['Han', 'Hangul']),
  new Set(['Han', 'Bopomofo']),
];

const LETTER = /\p{L}/u;

/** The scripts of the letters of `label`, in order of first appearance. */
function scriptsOf(label: string): string[] {
  const found: string[] = [];
  for (const char of label) {
    if (!LETTER.test(char)) continue;
    const script = SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'other';
    if (!found.includes(script)) found.push(script);
  }
  return found;
}

function isMixed(scripts: readonly string[]): boolean {
  if (scripts.length < 2) return false;
  return !ONE_WRITING_SYSTEM.some((system) => scripts.every((script) => system.has(script)));
}

function listScripts(scripts: readonly string[]): string {
  return scripts.length <= 2 ? scripts.join(' and ') : `${scripts.slice(0, -1).join(', ')} and ${scripts.at(-1) ?? ''}`;
}

/** Options of {@link describeLookAlikeHost}. */
export interface DescribeLookAlikeHostOptions {
  /** What the host belongs to, starting the sentence. @default "The host" */
  readonly subject?: string | undefined;
  /** The last sentence: what the user should do. @default "Check the address before you use it." */
  readonly advice?: string | undefined;
}

/**
 * A warning for a host name that may imitate another one: an internationalised name (a label
 * starting `xn--`, i.e. punycode) or a label whose letters mix scripts (Latin with Cyrillic,
 * Greek...). The URL parser turns every non-ASCII host into punycode, so the name is decoded
 * (`domainToUnicode`) to look at its letters; both forms appear in the warning, quoted and
 * escaped. `undefined` for a plain ASCII host name, or a name in one script (`名前.jp` written in
 * Unicode is decoded to itself and only warned about when it came as punycode).
 *
 * @example
 * ```ts
 * describeLookAlikeHost(new URL('https://pаypal.com/').hostname, { subject: "The authorization server's host" });
 * // 'The authorization server\'s host "xn--pypal-4ve.com" is an internationalised (punycode) name that reads as
 * //  "pаypal.com" and mixes Latin and Cyrillic letters in one label ("pаypal"); it may imitate another site
 * //  with look-alike letters. Check the address before you use it.'
 * ```
 */
export function describeLookAlikeHost(hostname: string, options: DescribeLookAlikeHostOptions = {}): string | undefined {
  const punycode = hostname.split('.').some((label) => label.toLowerCase().startsWith('xn--'));
  const decoded = domainToUnicode(hostname);
  const mixed = decoded
    .split('.')
    .map((label) => ({ label, scripts: scriptsOf(label) }))
    .find((entry) => isMixed(entry.scripts));
  if (!punycode && !mixed) return undefined;
  const quote = (text: string, maxLength: number): string => `"${escapeControlText(text, { maxLength })}"`;
  let what = punycode ? 'is an internationalised (punycode) name' : 'is a name';
  if (!decoded) what += ' that cannot be decoded';
  else {
    what += ` that reads as ${quote(decoded, 300)}`;
    if (mixed) what += ` and mixes ${listScripts(mixed.scripts)} letters in one label (${quote(mixed.label, 100)})`;
  }
  const subject = options.subject ?? 'The host';
  const advice = options.advice ?? 'Check the address before you use it.';
  return `${subject} ${quote(hostname, 300)} ${what}; it may imitate another site with look-alike letters. ${advice}`;
}
