import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chatContentSecurityPolicy } from '../../src/shared/csp';
import type { ViewMessage } from '../../src/shared/protocol';
import { repoRoot } from '../unit/support/repoRoot';
import { gradientPng, tinyPng } from './fixtures';
import { themeStylesheet, type ThemeKind } from './themes';

/**
 * Runs the chat webview in headless Chromium the way VS Code hosts it: the same CSP, our
 * stylesheet, the theme variables and body class, a stub `acquireVsCodeApi` that records what the
 * view posts, and host messages delivered with `window.postMessage`. Every request that is not
 * one of the harness's own files is blocked and recorded.
 */

export { repoRoot };

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...extraArgs],
  });
}

/**
 * The webview bundle, built from source once per process as the packaged product's (`--production`:
 * minified, no source map), so the tests load what ships. An inline source map would quadruple what
 * every test's page parses, and Chromium does not apply it to the errors a test reports anyway.
 */
let bundle: Promise<string> | undefined;
function webviewBundle(): Promise<string> {
  // Read when the tests run, from the repository: the product build's own file, not bundled into the tests.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { webview } = require(path.join(repoRoot, 'esbuild.js')) as { webview: esbuild.BuildOptions };
  bundle ??= esbuild
    .build({
      ...webview,
      absWorkingDir: repoRoot,
      bundle: true,
      minify: true,
      legalComments: 'none',
      write: false,
      logLevel: 'silent',
    })
    .then((result) => result.outputFiles[0].text);
  return bundle;
}

interface KatexStyles {
  css: string;
  fonts: { name: string; file: string }[];
}

/** KaTeX's stylesheet and fonts, as the product build writes them to dist/katex/ (esbuild.js). */
function katexStyles(): KatexStyles {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(path.join(repoRoot, 'esbuild.js')) as { katexStyles: () => KatexStyles }).katexStyles();
}

/** Where the page loads KaTeX's stylesheet and fonts from: the view's resource root, as in the product. */
export const KATEX_PATH = '/dist/katex/';

/** Starts the browser and the page server before a mocha suite and stops them after it. */
export function useHarness(): { browser: Browser; server: HarnessServer } {
  const harness = {} as { browser: Browser; server: HarnessServer };
  before(async () => {
    harness.browser = await launchBrowser();
    harness.server = await startServer();
  });
  after(async () => {
    await harness.browser?.close();
    await harness.server?.close();
  });
  return harness;
}

/**
 * `useHarness` plus a fresh chat view for each test (handed to `onOpen`); after each test, checks
 * that the page stayed clean (no uncaught error, no CSP violation, no request beyond the harness's
 * files) and closes it.
 */
export function useView(onOpen: (view: View) => void): { browser: Browser; server: HarnessServer; reopen(options: ViewOptions): Promise<View> } {
  const harness = useHarness();
  let view: View;
  const open = async (options?: ViewOptions) => {
    view = await View.open(harness.browser, harness.server, options);
    onOpen(view);
    return view;
  };
  beforeEach(() => open());
  afterEach(async () => {
    assert.deepEqual(view.pageErrors, [], 'no uncaught errors in the page');
    assert.deepEqual(await view.cspViolations(), [], 'no CSP violations');
    assert.deepEqual(view.externalRequests, [], 'no requests beyond the harness files');
    await view.close();
  });
  return {
    ...harness,
    /** Closes this test's view and opens another (as after the view was hidden and shown again). */
    reopen: async (options) => {
      await view.close();
      return open(options);
    },
  };
}

export interface HarnessServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves the page's files on 127.0.0.1 (the CSP names this origin as `webview.cspSource`). */
export async function startServer(): Promise<HarnessServer> {
  const script = await webviewBundle();
  const katex = katexStyles();
  // The page's strings come in its address (`?strings=`): all of them, translated, outgrow Node's 16 KB of headers.
  const server = http.createServer({ maxHeaderSize: 256 * 1024 }, (request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
    const send = (type: string, body: string | Buffer) => {
      response.writeHead(200, {
        'content-type': type,
        'cache-control': 'no-store',
        // Cross-origin isolation gives performance.now() 5 µs resolution instead of 100 µs, which the
        // benchmark needs to time per-frame work. It changes nothing else the view does.
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
        'cross-origin-resource-policy': 'same-origin',
      });
      response.end(body);
    };
    if (url.pathname === '/dist/webview.js') return send('text/javascript', script);
    if (url.pathname === '/media/chat.css') return send('text/css', fs.readFileSync(path.join(repoRoot, 'media/chat.css'), 'utf8'));
    if (url.pathname === `${KATEX_PATH}katex.css`) return send('text/css', katex.css);
    const font = katex.fonts.find(({ name }) => url.pathname === `${KATEX_PATH}fonts/${name}`);
    if (font) return send('font/woff2', fs.readFileSync(font.file));
    if (url.pathname === '/theme.css') return send('text/css', themeStylesheet(url.searchParams.get('kind') === 'light' ? 'light' : 'dark'));
    if (url.pathname === '/view.html') return send('text/html; charset=utf-8', pageHtml(url));
    // The pictures the host keeps in its storage, which the view loads by their resource address.
    if (url.pathname === '/images/tiny.png') return send('image/png', tinyPng);
    const gradient = /^\/images\/gradient-(\d{1,4})x(\d{1,4})\.png$/.exec(url.pathname);
    if (gradient) return send('image/png', gradientPng(Number(gradient[1]), Number(gradient[2])));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Escapes text for a single-quoted HTML attribute (what the host must do with data-strings). */
export function attributeEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The skeleton the host writes, with the product's own CSP. */
function pageHtml(url: URL): string {
  const origin = `http://${url.host}`;
  const nonce = crypto.randomBytes(16).toString('base64');
  const kind = url.searchParams.get('kind') === 'light' ? 'light' : 'dark';
  const strings = url.searchParams.get('strings') ?? '{}';
  const lang = url.searchParams.get('lang') ?? 'en';
  return `<!DOCTYPE html>
<html lang="${attributeEscape(lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${chatContentSecurityPolicy(origin, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${origin}/theme.css?kind=${kind}" rel="stylesheet">
<link href="${origin}${KATEX_PATH}katex.css" rel="stylesheet">
<link href="${origin}/media/chat.css" rel="stylesheet">
<title>GigaChat</title>
</head>
<body class="vscode-${kind}" data-vscode-theme-kind="vscode-${kind}" data-strings='${attributeEscape(strings)}'>
<div id="app"></div>
<script nonce="${nonce}" src="${origin}/dist/webview.js"></script>
</body>
</html>`;
}

export interface ViewOptions {
  theme?: ThemeKind;
  /** Localized strings for data-strings (defaults to none: the view falls back to English). */
  strings?: Record<string, string>;
  lang?: string;
  width?: number;
  height?: number;
  /** What `getState()` returns at load, as if the view had been hidden and shown again. */
  savedState?: unknown;
  /** Time rendering work inside the page (requestAnimationFrame callbacks and message handlers). */
  instrument?: boolean;
}

declare global {
  interface Window {
    __posted: unknown[];
    __state: unknown;
    __cspViolations: string[];
    __pwned: number;
    __perf: { frames: number; message: number; frameCount: number; longestFrame: number };
  }
}

/** Runs in the page before its own scripts: the VS Code API stub and the probes the tests read. */
function initScript(options: { savedState: unknown; instrument: boolean }): void {
  window.__posted = [];
  window.__state = options.savedState;
  window.__cspViolations = [];
  window.__pwned = 0;
  let acquired = false;
  (window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi called twice');
    acquired = true;
    return {
      // Bytes (a pasted picture) as a plain array of numbers, so a test can compare them.
      postMessage: (message: unknown) =>
        window.__posted.push(JSON.parse(JSON.stringify(message, (_key, value: unknown) => (value instanceof Uint8Array ? Array.from(value) : value)))),
      getState: () => window.__state,
      setState: (state: unknown) => {
        window.__state = JSON.parse(JSON.stringify(state));
      },
    };
  };
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
  if (!options.instrument) return;
  window.__perf = { frames: 0, message: 0, frameCount: 0, longestFrame: 0 };
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    raf((time) => {
      const start = performance.now();
      try {
        callback(time);
      } finally {
        const took = performance.now() - start;
        window.__perf.frames += took;
        window.__perf.frameCount++;
        window.__perf.longestFrame = Math.max(window.__perf.longestFrame, took);
      }
    });
  const add = window.addEventListener.bind(window);
  window.addEventListener = ((type: string, listener: EventListener, opts?: boolean | AddEventListenerOptions) => {
    if (type !== 'message' || typeof listener !== 'function') return add(type, listener, opts);
    return add(
      type,
      (event: Event) => {
        const start = performance.now();
        try {
          listener(event);
        } finally {
          window.__perf.message += performance.now() - start;
        }
      },
      opts,
    );
  }) as typeof window.addEventListener;
}

/**
 * One browser context for every view a browser opens: a page in it opens in a fraction of the time a
 * context of its own takes. The view keeps nothing in the context between pages (its state is the
 * `acquireVsCodeApi` stub's, its requests go through `page.route`, which also keeps the HTTP cache off).
 */
const contexts = new WeakMap<Browser, Promise<BrowserContext>>();
function sharedContext(browser: Browser): Promise<BrowserContext> {
  let context = contexts.get(browser);
  if (!context) contexts.set(browser, (context = browser.newContext({ deviceScaleFactor: 1 })));
  return context;
}

export class View {
  /** URLs the page tried to load that are not the harness's own files. */
  readonly externalRequests: string[] = [];
  readonly consoleErrors: string[] = [];
  readonly consoleWarnings: string[] = [];
  readonly pageErrors: string[] = [];

  private constructor(
    readonly page: Page,
    /** Where the harness serves the page's files: the view's resource root (`webview.cspSource`). */
    readonly origin: string,
  ) {}

  static async open(browser: Browser, server: HarnessServer, options: ViewOptions = {}): Promise<View> {
    const page = await (await sharedContext(browser)).newPage();
    await page.setViewportSize({ width: options.width ?? 420, height: options.height ?? 720 });
    const view = new View(page, server.origin);
    const own = new Set(['/view.html', '/dist/webview.js', '/media/chat.css', '/theme.css']);
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      const ownPath = own.has(url.pathname) || url.pathname.startsWith('/images/') || url.pathname.startsWith(KATEX_PATH);
      if (url.origin === server.origin && ownPath) return route.continue();
      view.externalRequests.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    page.on('console', (message) => {
      if (message.type() === 'error') view.consoleErrors.push(message.text());
      if (message.type() === 'warning') view.consoleWarnings.push(message.text());
    });
    page.on('pageerror', (error) => view.pageErrors.push(String(error)));
    await page.addInitScript(initScript, { savedState: options.savedState ?? null, instrument: options.instrument ?? false });
    const query = new URLSearchParams({
      kind: options.theme ?? 'dark',
      strings: JSON.stringify(options.strings ?? {}),
      lang: options.lang ?? 'en',
    });
    await page.goto(`${server.origin}/view.html?${query}`);
    await page.waitForFunction(() => window.__posted.length > 0);
    return view;
  }

  /** Delivers a host message the way VS Code does (a message event on the window). */
  async send(message: unknown): Promise<void> {
    await this.page.evaluate((data) => window.postMessage(data, '*'), message);
    await this.settle();
  }

  /** Waits until pending message events and two animation frames have run. */
  async settle(): Promise<void> {
    await this.page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), 0)));
  }

  async posted(): Promise<ViewMessage[]> {
    return (await this.page.evaluate(() => window.__posted)) as ViewMessage[];
  }

  async postedOfType<T extends ViewMessage['type']>(type: T): Promise<Extract<ViewMessage, { type: T }>[]> {
    return (await this.posted()).filter((message): message is Extract<ViewMessage, { type: T }> => message.type === type);
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      window.__posted.length = 0;
    });
  }

  async cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => window.__cspViolations);
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}
