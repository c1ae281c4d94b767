// Records every message the webviews' frames receive (VS Code's webview frames and the chat page
// inside them), so the after-suite checks can prove the authorization key never crossed into a
// webview, not only that it is absent from the page at the end.
'use strict';

/** Installs the recorder on `page` before it navigates; messages land in `sink` as text. */
async function recordWebviewMessages(page, sink) {
  await page.exposeBinding('__gigachatRecordMessage', (_source, text) => {
    sink.push(String(text));
  });
  await page.addInitScript(() => {
    if (window === window.top) return; // the workbench itself is not a webview
    window.addEventListener('message', (event) => {
      let text;
      try {
        text = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
      } catch {
        text = String(event.data); // e.g. data holding a MessagePort
      }
      window.__gigachatRecordMessage?.(text);
    });
  });
}

module.exports = { recordWebviewMessages };
