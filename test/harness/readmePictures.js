// The README's pictures are screenshots the integration suite takes of the build under test, so they
// never show an old look: when a suite saves a screenshot under one of these names, a copy goes to
// media/readme/<name>.png (test/unit/project/readmePictures.test.ts checks that the README shows only these).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const README_PICTURES = ['chat', 'explain-question', 'search-results', 'vscode-chat-answer'].flatMap((name) => [`${name}-dark`, `${name}-light`]);

const folder = path.resolve(__dirname, '../../media/readme');

/** Copies the screenshot `file`, saved as `name`, to the README's pictures when the README shows it. */
function keepForReadme(name, file) {
  if (!README_PICTURES.includes(name)) return;
  fs.mkdirSync(folder, { recursive: true });
  fs.copyFileSync(file, path.join(folder, `${name}.png`));
}

module.exports = { README_PICTURES, keepForReadme };
