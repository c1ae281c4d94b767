// Drives the chat webview like a person, from the outer runner's browser: VS Code puts each webview
// in nested iframes, so the chat's document is found among the page's frames by its #app root.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { keepForReadme } = require('./readmePictures');

async function chatFrame(page, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const isChat = await frame.evaluate(() => Boolean(document.querySelector('#app') && document.body.dataset.strings)).catch(() => false);
      if (isChat) return frame;
    }
    await page.waitForTimeout(200);
  }
  throw new Error('the chat webview did not appear');
}

/** Handlers for callOuter('webview', { action, … }). */
function webviewHandler() {
  return async (params, ctx) => {
    const frame = await chatFrame(ctx.page);
    switch (params.action) {
      case 'type': // into the chat input, as keystrokes
        await frame.locator('textarea').click();
        await frame.locator('textarea').pressSequentially(params.text, { delay: 5 });
        return true;
      case 'press':
        await frame.locator(params.selector ?? 'textarea').press(params.key);
        return true;
      case 'click':
        await frame.locator(params.selector).first().click();
        return true;
      case 'select': // picks an option of a <select>, as a person would
        await frame.locator(params.selector).selectOption(params.value);
        return true;
      case 'text': // innerText of every match
        return frame.locator(params.selector).allInnerTexts();
      case 'inputValue': // what the chat input holds
        return frame.locator('textarea').inputValue();
      case 'textContent': // textContent of every match, also of turns scrolled out of view (innerText is empty there)
        return frame.locator(params.selector).allTextContents();
      case 'count':
        return frame.locator(params.selector).count();
      case 'attribute':
        return frame.locator(params.selector).evaluateAll((elements, name) => elements.map((e) => e.getAttribute(name)), params.name);
      case 'scrollTo': // scrolls the first match to `top` pixels, as a drag of the scroll bar would
        await frame
          .locator(params.selector)
          .first()
          .evaluate((element, top) => element.scrollTo({ top, behavior: 'instant' }), params.top);
        return true;
      case 'property': // a DOM property of every match (an image's naturalWidth once it has loaded…)
        return frame.locator(params.selector).evaluateAll((elements, name) => elements.map((e) => e[name]), params.name);
      case 'waitFor': // until `selector` matches (state: visible | attached | hidden)
        await frame
          .locator(params.selector)
          .first()
          .waitFor({ state: params.state ?? 'visible', timeout: params.timeoutMs ?? 15_000 });
        return true;
      case 'waitForReply': // a reply beyond the first `after` ones has finished (not streaming, not busy)
        await frame.waitForFunction(
          (after) =>
            document.querySelectorAll('.turn-assistant').length > after &&
            !document.querySelector('.turn-assistant.streaming') &&
            !document.querySelector('.send-button.is-stop'),
          params.after,
          { timeout: params.timeoutMs ?? 30_000 },
        );
        return true;
      case 'waitForText':
        await frame.waitForFunction(
          ([selector, text]) => [...document.querySelectorAll(selector)].some((e) => e.textContent.includes(text)),
          [params.selector, params.text],
          { timeout: params.timeoutMs ?? 15_000 },
        );
        return true;
      case 'pastePicture': {
        // A file in the clipboard pasted into the chat input, as a screenshot tool leaves it: the
        // bytes given (base64), or `size` zero bytes for a file too large to be worth sending here.
        await frame.locator('textarea').evaluate((textarea, file) => {
          const bytes = file.base64 ? Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0)) : new Uint8Array(file.size);
          const data = new DataTransfer();
          data.items.add(new File([bytes], file.name, { type: file.type }));
          textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        }, params);
        return true;
      }
      case 'postRaw': {
        // Sends arbitrary values to the extension host as the chat page itself would. The page took
        // its one acquireVsCodeApi() already, so this calls what that API calls: the function that
        // VS Code's webview host frame (the chat frame's parent) exposes for it.
        await frame.parentFrame().evaluate((messages) => {
          for (const message of messages) window.__vscode_post_message__('onmessage', { message, transfer: undefined });
        }, params.messages);
        return params.messages.length;
      }
      case 'layout': {
        // How the matches are laid out: each one's scrolling width and visible width, and the words of
        // its text the browser drew across two lines (a word split in two).
        return frame.locator(params.selector).evaluateAll((elements) =>
          elements.map((element) => {
            const split = [];
            const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) split.push(match[0]);
              }
            }
            return { scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, splitWords: split };
          }),
        );
      }
      case 'screenshot': {
        // just the view: the outermost iframe that holds the chat's document
        let outer = frame;
        while (outer.parentFrame() && outer.parentFrame() !== ctx.page.mainFrame()) outer = outer.parentFrame();
        const file = path.join(ctx.resultsDir, `${String(params.name).replace(/[^\w.-]/g, '_')}.png`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        await (await outer.frameElement()).screenshot({ path: file });
        keepForReadme(String(params.name), file);
        return { file };
      }
      default:
        throw new Error(`unknown webview action ${params.action}`);
    }
  };
}

/** Workbench-level input (quick input boxes, keyboard shortcuts). */
function workbenchHandler() {
  return async (params, ctx) => {
    const page = ctx.page;
    switch (params.action) {
      case 'quickInput': // types into the open quick input (e.g. the key box) and presses Enter
        await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible', timeout: 10_000 });
        await page.locator('.quick-input-widget input').first().fill(params.text);
        await page.keyboard.press('Enter');
        return true;
      case 'quickInputMessage':
        await page.waitForTimeout(params.waitMs ?? 0);
        return page
          .locator('.quick-input-widget .quick-input-message')
          .first()
          .innerText()
          .catch(() => '');
      case 'press':
        await page.keyboard.press(params.key);
        return true;
      case 'texts': // innerText of every match in the workbench itself (VS Code's Chat view…), not in webviews
        return page.locator(params.selector).allInnerTexts();
      case 'attributes': // an attribute of every match in the workbench itself (null where it is missing)
        return page.locator(params.selector).evaluateAll((elements, name) => elements.map((element) => element.getAttribute(name)), params.name);
      case 'clickButton': // a button of the workbench by its accessible name, within `selector`
        await page.locator(params.selector).getByRole('button', { name: params.name, exact: false }).first().click({ timeout: 10_000 });
        return true;
      case 'click': // the first match of a selector in the workbench itself (a control without a button's role)
        await page.locator(params.selector).first().click({ timeout: 10_000 });
        return true;
      case 'typeText': // keystrokes to whatever has the focus, as a person types
        await page.keyboard.type(params.text, { delay: 5 });
        return true;
      case 'notifications':
        // The toasts, and the notification center's list while it is open.
        return page.locator('.notification-toast .notification-list-item-message, .notifications-center .notification-list-item-message').allInnerTexts();
      case 'notificationLinks':
        // the links VS Code made of the notifications' text (a message's `[x](command:…)`), as text and target
        return page
          .locator('.notification-toast .notification-list-item-message a, .notifications-center .notification-list-item-message a')
          .evaluateAll((links) => links.map((link) => `${link.textContent} -> ${link.getAttribute('href') ?? link.getAttribute('data-href') ?? ''}`));
      case 'notificationButton':
        await page.locator('.notification-toast', { hasText: params.message }).locator('.monaco-button', { hasText: params.label }).first().click();
        return true;
      case 'notificationButtons':
        return page.locator('.notification-toast .notification-list-item-buttons-container .monaco-button').allInnerTexts();
      case 'quickPickRows': {
        // the open quick pick's rows (label, description, detail), once it has at least `min` and its title holds `title`
        if (params.title)
          await page
            .locator('.quick-input-widget .quick-input-title', { hasText: params.title })
            .first()
            .waitFor({ state: 'visible', timeout: params.timeoutMs ?? 15_000 });
        const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
        await rows.nth((params.min ?? 1) - 1).waitFor({ state: 'visible', timeout: params.timeoutMs ?? 15_000 });
        return rows.evaluateAll((elements) => elements.map((row) => row.getAttribute('aria-label') ?? row.textContent ?? ''));
      }
      case 'closeQuickInput': {
        // Escape, as a person closes it, until it is gone: a picker kept open on focus loss must not answer the next command with its old rows
        const widget = page.locator('.quick-input-widget').first();
        for (let attempt = 0; attempt < 3; attempt++) {
          await page.keyboard.press('Escape');
          if (
            await widget.waitFor({ state: 'hidden', timeout: 2_000 }).then(
              () => true,
              () => false,
            )
          )
            return true;
          // Escape went wherever the focus had moved (an editor opening): give it back to the input, as a person would.
          await page
            .locator('.quick-input-widget input')
            .first()
            .click({ timeout: 2_000 })
            .catch(() => undefined);
        }
        throw new Error('the quick input stayed open after Escape');
      }
      case 'quickInputFocus': // clicks into the open quick input, as a user does before typing
        await page.locator('.quick-input-widget input').first().click();
        return true;
      case 'quickPickButton': // clicks a button in the quick pick's title bar, by its tooltip
        await page.locator(`.quick-input-widget .quick-input-titlebar [aria-label="${params.label}"]`).first().click();
        return true;
      case 'statusBarText': // the text of the status bar item with this id
        return page
          .locator(`.statusbar-item[id="${params.id}"]`)
          .first()
          .innerText({ timeout: params.timeoutMs ?? 5_000 })
          .catch(() => '');
      case 'chooseFile': {
        // types a path into the file dialog (a quick input in code-server) and accepts it
        const input = page.locator('.quick-input-widget input').first();
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        // The dialog fills in its starting folder once it has read it, over anything typed before,
        // and ignores Enter while it is still reading a folder: type, check, and try again.
        for (let attempt = 0; attempt < 10; attempt++) {
          await input.fill(params.path);
          await page.waitForTimeout(300);
          if ((await input.inputValue()) !== params.path) continue;
          await page.keyboard.press('Enter');
          if (
            await input.waitFor({ state: 'hidden', timeout: 1_000 }).then(
              () => true,
              () => false,
            )
          )
            return true;
        }
        throw new Error(`the file dialog did not accept ${params.path}; it shows ${await input.inputValue()}`);
      }
      case 'headingInView': {
        // in any webview (a Markdown preview…): is this heading scrolled near the top?
        const deadline = Date.now() + (params.timeoutMs ?? 15_000);
        let seen = [];
        while (Date.now() < deadline) {
          seen = [];
          for (const frame of page.frames()) {
            const headings = await frame
              .evaluate(() =>
                [...document.querySelectorAll('h1, h2, h3')].map((h) => ({
                  text: h.textContent.trim(),
                  top: Math.round(h.getBoundingClientRect().top),
                  height: window.innerHeight,
                })),
              )
              .catch(() => []);
            seen.push(...headings);
          }
          const heading = seen.find((h) => h.text === params.text);
          if (heading && heading.top >= 0 && heading.top < heading.height / 2) return { inView: true, headings: [] };
          await page.waitForTimeout(200);
        }
        const frames = await Promise.all(
          page
            .frames()
            .map(
              async (f) => `${f.url().slice(0, 120)} ${await f.evaluate(() => document.body?.innerText.length).catch((e) => 'ERR ' + e.message.slice(0, 80))}`,
            ),
        );
        return { inView: false, headings: [...seen.map((h) => `${h.text}@${h.top}/${h.height}`), ...frames] };
      }
      case 'dialogText': // the open modal dialog's message and detail
        await page
          .locator('.monaco-dialog-box')
          .first()
          .waitFor({ state: 'visible', timeout: params.timeoutMs ?? 10_000 });
        return page.locator('.monaco-dialog-box').first().innerText();
      case 'dialogButton': // presses a button of the open modal dialog by its label
        await page.locator('.monaco-dialog-box').getByRole('button', { name: params.name, exact: true }).click();
        return true;
      default:
        throw new Error(`unknown workbench action ${params.action}`);
    }
  };
}

module.exports = { chatFrame, webviewHandler, workbenchHandler };
