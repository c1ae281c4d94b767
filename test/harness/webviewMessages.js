// Records every message the workbench sends to its webviews, so the after-suite checks can prove
// the authorization key never crossed into a webview, not only that it is absent from the page at
// the end. The workbench talks to each webview over a MessagePort the webview handed it; wrapping
// MessagePort.postMessage in the workbench's own page sees every message, whatever the webview.
'use strict';

/** Installs the recorder on `page` before it navigates; messages land in `sink` as text. */
async function recordWebviewMessages(page, sink) {
  await page.exposeBinding('__gigachatRecordMessage', (_source, text) => {
    sink.push(String(text));
  });
  await page.addInitScript(() => {
    if (window !== window.top) return; // only the workbench's side of the ports
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (message, ...rest) {
      let text;
      try {
        text = typeof message === 'string' ? message : JSON.stringify(message);
      } catch {
        text = String(message); // e.g. a message holding a port
      }
      window.__gigachatRecordMessage?.(text);
      return post.call(this, message, ...rest);
    };
  });
}

module.exports = { recordWebviewMessages };
