import * as assert from 'node:assert/strict';
import { ATTACHMENT_LIMITS, checkAddition, documentType, fitToRequest, type SizedFile } from '../../../src/core';

const MiB = 1024 * 1024;
const picture = (bytes = MiB): SizedFile => ({ kind: 'picture', bytes });
const document = (bytes = MiB): SizedFile => ({ kind: 'document', bytes });

/** The service's documented limits on attachments (service-api.md §11), as the chat applies them before any upload. */
describe('the limits on attached files', () => {
  it('knows the documents the service takes by their extension, in any case, and nothing else', () => {
    const expected = {
      'report.PDF': 'application/pdf',
      'notes.txt': 'text/plain',
      'old.doc': 'application/msword',
      'new.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'book.epub': 'application/epub+zip',
      'slides.ppt': 'application/vnd.ms-powerpoint',
      'slides.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    };
    assert.deepEqual(Object.fromEntries(Object.keys(expected).map((name) => [name, documentType(name)])), expected);
    for (const name of ['table.xlsx', 'archive.zip', 'pdf', 'notes.txt.exe', 'README']) assert.equal(documentType(name), undefined, name);
  });

  it('one picture a message: a second is refused, a document beside the picture is not', () => {
    assert.equal(checkAddition([], picture()), undefined);
    assert.equal(checkAddition([picture()], picture()), 'secondPicture');
    assert.equal(checkAddition([picture()], document()), undefined);
    assert.equal(checkAddition([document(), document()], picture()), undefined);
  });

  it('at most 10 files a message: the 11th is refused', () => {
    const ten = Array.from({ length: 10 }, () => document(1000));
    assert.equal(checkAddition(ten.slice(1), document(1000)), undefined, 'the 10th is taken');
    assert.equal(checkAddition(ten, document(1000)), 'tooMany');
  });

  it('under 20 MB in all: a file that brings the message to 20 MB is refused, also a lone 30 MB document', () => {
    assert.equal(checkAddition([document(12 * MiB)], document(7 * MiB)), undefined);
    assert.equal(checkAddition([document(12 * MiB)], document(8 * MiB)), 'requestTooLarge');
    assert.equal(checkAddition([], document(30 * MiB)), 'requestTooLarge');
    assert.equal(ATTACHMENT_LIMITS.requestBytes, 20 * MiB);
  });

  it("a conversation's files beyond a request's limits: the oldest are left out, the newest go", () => {
    const files = Array.from({ length: 13 }, (_, index) => ({ ...document(1000), name: `f${index + 1}` }));
    const { sent, leftOut } = fitToRequest(files);
    assert.deepEqual(
      leftOut.map((file) => file.name),
      ['f1', 'f2', 'f3'],
    );
    assert.deepEqual(sent.map((file) => file.name).slice(0, 2), ['f4', 'f5']);
    assert.equal(sent.length, 10);

    const large = [
      { ...document(9 * MiB), name: 'old' },
      { ...document(9 * MiB), name: 'middle' },
      { ...picture(9 * MiB), name: 'new' },
    ];
    const fitted = fitToRequest(large);
    assert.deepEqual(
      fitted.sent.map((file) => file.name),
      ['middle', 'new'],
    );
    assert.deepEqual(
      fitted.leftOut.map((file) => file.name),
      ['old'],
    );
    assert.deepEqual(fitToRequest([]), { sent: [], leftOut: [] });
  });
});
