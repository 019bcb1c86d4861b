// Words for a POSIX shell: a command printed for pasting (the line that resumes a bulk run) must run as printed,
// whatever its paths and URLs hold. Quoting rules: POSIX.1-2024, Shell Command Language 2.2 (single quotes keep
// every character but the single quote itself; dollar-single-quotes take backslash escapes).

/** Characters a word may hold bare: nothing a shell expands, splits on or treats as an operator. */
const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;
// control characters (a path holding a newline, an escape) are written as escapes, never raw on a terminal
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** One word, quoted only when it needs to be. */
export function shellWord(word: string): string {
  if (BARE.test(word)) return word;
  if (CONTROL.test(word)) return dollarQuoted(word);
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line of words. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}

/** $'...': backslashes, quotes and control characters escaped, each control as its UTF-8 bytes in octal. */
function dollarQuoted(word: string): string {
  let out = '';
  for (const char of word) {
    if (char === '\\' || char === "'") out += `\\${char}`;
    else if (CONTROL.test(char)) for (const byte of Buffer.from(char, 'utf8')) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += char;
  }
  return `$'${out}'`;
}
