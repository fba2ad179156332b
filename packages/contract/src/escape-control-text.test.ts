import { describe, expect, it } from 'vitest';
import { escapeControlText, stripTagCharacters } from './index.js';

describe('escapeControlText', () => {
  it('writes terminal escapes, newlines, DEL, C1, BiDi and zero-width characters as visible \\u escapes', () => {
    const hostile = 'a\u001b[2J\u001b]0;title\u0007\r\nINFO forged\u007f\u009b\u202eevil\u2066\u200b\u200d\u2060\ufeff\u200e';
    expect(escapeControlText(hostile)).toBe(
      'a\\u001b[2J\\u001b]0;title\\u0007\\u000d\\u000aINFO forged\\u007f\\u009b\\u202eevil\\u2066\\u200b\\u200d\\u2060\\ufeff\\u200e',
    );
  });

  it('keeps line feeds and tabs in multiline mode, turns CR LF into LF, and still escapes a lone CR and ESC', () => {
    expect(escapeControlText('one\n\ttwo\r\u001b[1m', { multiline: true })).toBe('one\n\ttwo\\u000d\\u001b[1m');
    expect(escapeControlText('one\r\ntwo\u2028three', { multiline: true })).toBe('one\ntwo\\u2028three');
  });

  it('escapes line separators, the Arabic letter mark, soft hyphens, Hangul fillers, stray variation selectors, annotations and lone surrogates', () => {
    expect(escapeControlText('a\u2028b\u2029c\u061cd\u00ade\u3164f\ufe0fg\u{e0100}h\ufff9i\ud800j')).toBe(
      'a\\u2028b\\u2029c\\u061cd\\u00ade\\u3164f\\ufe0fg\\u{e0100}h\\ufff9i\\ud800j',
    );
  });

  it('keeps emoji sequences readable: presentation selectors after an emoji, joiners between emoji', () => {
    const emoji = '⚠️ ⏏️ 👩🏽\u200d💻 ❤️\u200d🔥 1️⃣';
    expect(escapeControlText(emoji)).toBe(emoji);
    // A joiner that does not join two emoji is an invisible character like any other.
    expect(escapeControlText('a\u200db 📡\u200d')).toBe('a\\u200db 📡\\u200d');
  });

  it('changes nothing more when applied twice', () => {
    const once = escapeControlText('x\u001b]0;t\u0007\u202e\u{e0041}\u200b');
    expect(escapeControlText(once)).toBe(once);
  });

  it('cuts to maxLength with an ellipsis before escaping', () => {
    expect(escapeControlText('abcdef\u001b', { maxLength: 3 })).toBe('abc…');
    expect(escapeControlText('ab\u001b', { maxLength: 3 })).toBe('ab\\u001b');
  });

  it('writes Unicode tag characters as visible escapes and never splits a surrogate pair when cutting', () => {
    expect(escapeControlText('a\u{e0069}')).toBe('a\\u{e0069}');
    expect(escapeControlText('ab📡', { maxLength: 3 })).toBe('ab…');
  });

  it('leaves ordinary text, including non-Latin scripts and emoji, unchanged', () => {
    expect(escapeControlText('ünïcödé 名前 📡')).toBe('ünïcödé 名前 📡');
  });
});

describe('stripTagCharacters', () => {
  it('removes Unicode tag characters only', () => {
    const hidden = [...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(stripTagCharacters(`Adds numbers.\u{e0001}${hidden}\u{e007f}`)).toBe('Adds numbers.');
  });
});
