// Outside text is made harmless before it reaches a terminal.
import { describe, expect, it } from 'vitest';
import { hasControlCharacters, quoteInput, safeText, terminalSafeJson } from '../../src/shared/terminal-text.js';
import { IOStreams } from '../../src/io/streams.js';

describe('safeText', () => {
  it.each([
    ['\u001b]0;title\u0007', '\\x1b]0;title\\x07'],
    ['\u001b[2J', '\\x1b[2J'],
    ['a\u009bb', 'a\\x9bb'],
    ['del\u007f', 'del\\x7f'],
    ['cr\rover', 'cr\\x0dover'],
    ['rtl\u202eevil', 'rtl\\u202eevil'],
    ['lone \ud800 surrogate', 'lone \\ud800 surrogate'],
    ['emoji 🚚 and 東京 stay', 'emoji 🚚 and 東京 stay'],
  ])('%j → %j', (input, expected) => {
    expect(safeText(input)).toBe(expected);
  });

  it('keeps newlines and tabs only where asked', () => {
    expect(safeText('a\nb\tc')).toBe('a\\x0ab\\x09c');
    expect(safeText('a\nb\tc', { newlines: true, tabs: true })).toBe('a\nb\tc');
  });

  it('tells whether text holds control characters', () => {
    expect(hasControlCharacters('plain')).toBe(false);
    expect(hasControlCharacters('x\u001by')).toBe(true);
    expect(hasControlCharacters('x\u0085y')).toBe(true);
  });
});

describe('quoteInput', () => {
  it('quotes, shows escapes and cuts long input between characters', () => {
    expect(quoteInput('\u001b[31mX')).toBe('"\\x1b[31mX"');
    const long = quoteInput('🚚'.repeat(100), 10);
    expect(long).toBe(`"${'🚚'.repeat(9)}… (100 characters)"`);
  });

  it('input holding double quotes (and no single one) is quoted with single quotes, so it reads as one value', () => {
    expect(quoteInput('fleet:"North 1" seen:>2h')).toBe(`'fleet:"North 1" seen:>2h'`);
    expect(quoteInput(`it's "x"`)).toBe(`"it's "x""`);
  });
});

describe('messages on stderr', () => {
  it('info shows control characters from records instead of sending them', () => {
    const io = IOStreams.forTest();
    io.info('driver \u001b]0;pwned\u0007 created\nnext line');
    expect(io.stderr()).toBe('driver \\x1b]0;pwned\\x07 created\nnext line\n');
  });

  it('labels are coloured only when stderr takes colour', () => {
    const plain = IOStreams.forTest({ tty: false });
    plain.error('bad \u001b[2J');
    plain.warn('careful');
    plain.hint('try this');
    expect(plain.stderr()).toBe('Error: bad \\x1b[2J\nWarning: careful\nHint: try this\n');
    const tty = IOStreams.forTest({ tty: true });
    tty.error('bad');
    tty.warn('careful');
    expect(tty.stderr()).toBe('\u001b[31m\u001b[1mError:\u001b[22m\u001b[39m bad\n\u001b[33mWarning:\u001b[39m careful\n');
  });

  it('the theme colours statuses by meaning', () => {
    const theme = IOStreams.forTest({ tty: true }).errTheme();
    expect(theme.status('accepted')).toBe('\u001b[32maccepted\u001b[39m');
    expect(theme.status('replayed')).toBe('\u001b[36mreplayed\u001b[39m');
    expect(theme.status('failed')).toBe('\u001b[31mfailed\u001b[39m');
    expect(theme.status('capability_missing')).toBe('\u001b[33mcapability_missing\u001b[39m');
    expect(theme.status('queued')).toBe('queued');
    expect(IOStreams.forTest({ tty: true, env: { NO_COLOR: '1' } }).errTheme().status('failed')).toBe('failed');
  });
});

describe('terminalSafeJson', () => {
  it('escapes what JSON leaves raw but a terminal acts on, and stays the same JSON value', () => {
    const value = { detail: 'Event \u009b2J\u007f\u202eevil was not found', ok: 'plain é 日本' };
    const text = terminalSafeJson(value);
    expect(text).toBe('{"detail":"Event \\u009b2J\\u007f\\u202eevil was not found","ok":"plain é 日本"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
