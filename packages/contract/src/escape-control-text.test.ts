import { describe, expect, it } from 'vitest';
import { escapeControlText, stripTagCharacters } from './index.js';

describe('escapeControlText', () => {
  it('writes terminal escapes, newlines, DEL, C1, BiDi and zero-width characters as visible \\u escapes', () => {
    const hostile = 'a\u001b[2J\u001b]0;title\u0007\r\nINFO forged\u007f\u009b\u202eevil\u2066\u200b\u200d\u2060\ufeff\u200e';
    expect(escapeControlText(hostile)).toBe(
      'a\\u001b[2J\\u001b]0;title\\u0007\\u000d\\u000aINFO forged\\u007f\\u009b\\u202eevil\\u2066\\u200b\\u200d\\u2060\\ufeff\\u200e',
    );
  });

  it('keeps line feeds and tabs in multiline mode and still escapes CR and ESC', () => {
    expect(escapeControlText('one\n\ttwo\r\u001b[1m', { multiline: true })).toBe('one\n\ttwo\\u000d\\u001b[1m');
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
