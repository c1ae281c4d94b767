import type { CDPSession, Page } from 'playwright-core';
import { launchBrowser, startServer, View } from '../webview/harness';

/**
 * What the chat view's benchmarks share (webviewRender.ts, mathRender.ts): streaming a reply into
 * the view in the harness's page, one delta and one frame at a time, and timing the scripting
 * inside the page (the page is opened with `instrument: true`) with Chromium's layout and style
 * totals beside it.
 */

export interface Cost {
  /** In-page scripting time (ms) in frame callbacks and message handlers. */
  script: number;
  /** The part of it spent in message handlers (validating and routing host messages). */
  messages: number;
  /** The most scripting one animation frame took. */
  longestFrame: number;
  /** Chromium's layout and style recalculation time (ms) over the same period. */
  layout: number;
  style: number;
  wall: number;
  frames: number;
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((metric) => [metric.name, metric.value]));
}

export async function measure(page: Page, cdp: CDPSession, action: () => Promise<void>): Promise<Cost> {
  await page.evaluate(() => {
    window.__perf.frames = 0;
    window.__perf.message = 0;
    window.__perf.frameCount = 0;
    window.__perf.longestFrame = 0;
  });
  const before = await metrics(cdp);
  const started = Date.now();
  await action();
  const wall = Date.now() - started;
  const after = await metrics(cdp);
  const perf = await page.evaluate(() => window.__perf);
  return {
    script: perf.frames + perf.message,
    messages: perf.message,
    longestFrame: perf.longestFrame,
    layout: (after.LayoutDuration - before.LayoutDuration) * 1000,
    style: (after.RecalcStyleDuration - before.RecalcStyleDuration) * 1000,
    wall,
    frames: perf.frameCount,
  };
}

/** Streams the deltas from inside the page: post one, let it be handled, let one frame draw it. */
export async function stream(page: Page, conversationId: string, turnId: string, deltas: string[]): Promise<void> {
  await page.evaluate(
    async ({ conversationId, turnId, deltas }) => {
      const handled = () => new Promise((resolve) => setTimeout(resolve, 0));
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      window.postMessage({ type: 'turnAdded', conversationId, turn: { id: turnId, role: 'assistant', content: '', status: 'streaming' } }, '*');
      await handled();
      for (const text of deltas) {
        window.postMessage({ type: 'delta', turnId, text }, '*');
        await handled();
        await frame();
      }
      await frame();
    },
    { conversationId, turnId, deltas },
  );
}

export async function post(page: Page, message: unknown): Promise<void> {
  await page.evaluate(async (data) => {
    window.postMessage(data, '*');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }, message);
}

/**
 * Opens the view in Chromium at an uncapped frame rate (the frames are real, just not 16 ms apart),
 * timing work inside the page and Chromium's own metrics, runs `bench` on it, then closes it all.
 */
export async function withBenchView(bench: (view: View, cdp: CDPSession) => Promise<void>): Promise<void> {
  const browser = await launchBrowser(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
  const server = await startServer();
  try {
    const view = await View.open(browser, server, { instrument: true, height: 800 });
    const cdp = await view.page.context().newCDPSession(view.page);
    await cdp.send('Performance.enable');
    await bench(view, cdp);
    await view.close();
  } finally {
    await browser.close();
    await server.close();
  }
}
