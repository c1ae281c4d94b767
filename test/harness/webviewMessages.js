// Watches every message the workbench sends to its webviews, so the after-suite checks can prove
// the authorization key never crossed into a webview, not only that it is absent from the page at
// the end. The workbench talks to each webview over a MessagePort the webview handed it; wrapping
// MessagePort.postMessage in the workbench's own page sees every message, whatever the webview.
// The page itself looks for the key: handing every message to this process (a chat of 2,000
// turns, each streamed delta) would cost the run more than the suite's own work.
'use strict';

/**
 * Installs the watch on `page` before it navigates. `seen.states` counts the chat state messages
 * (one per page load is reported: enough to show the watch saw the chat), `seen.leaks` gets the
 * start of each message that held `key`.
 */
async function watchWebviewMessages(page, key, seen) {
  await page.exposeBinding('__gigachatMessageSeen', (_source, kind, text) => {
    if (kind === 'state') seen.states += 1;
    else seen.leaks.push(String(text));
  });
  await page.addInitScript((key) => {
    if (window !== window.top) return; // only the workbench's side of the ports
    let stateReported = false;
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (message, ...rest) {
      let text;
      try {
        text = typeof message === 'string' ? message : JSON.stringify(message);
      } catch {
        text = String(message); // e.g. a message holding a port
      }
      if (text.includes(key)) window.__gigachatMessageSeen?.('leak', text.slice(0, 200).split(key).join('<the key>'));
      else if (!stateReported && text.includes('"type":"state"')) {
        stateReported = true;
        window.__gigachatMessageSeen?.('state', '');
      }
      return post.call(this, message, ...rest);
    };
  }, key);
}

module.exports = { watchWebviewMessages };
