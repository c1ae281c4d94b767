// The memory semantic search costs a user, measured as a user meets it, for `npm run bench`: the
// benchmark suite (suite/11-benchmark.test.ts) has indexed a workspace of real sources and saved its
// cache; the window reloads (a new extension host, where nothing of that indexing is left), and once
// the workbench is back and the host quiet, the host's resident memory is read from /proc (from
// outside: nothing in the host is disturbed or collected by force). One search is run through the
// command palette as a person runs it, and the host's resident memory is read 3, 15, 30 and 60 s
// after, and every 100 ms for the peak.
'use strict';

const fs = require('node:fs');

/** When the host's resident memory is read after the search starts. */
const SAMPLE_AFTER_MS = [3_000, 15_000, 30_000, 60_000];
/** The describe() title and the test of the benchmark suite that leaves the indexed workspace behind. */
const INDEXED_TEST = 'benchmark indexes a workspace of real sources for the search after a reload';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pids of the processes in process group `group` whose command line says they are an extension host. */
function extensionHosts(group) {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command's name (which may hold spaces): state, ppid, pgrp.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp === group && /extensionHost/.test(fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Resident memory of process `pid` in bytes. */
function rssOf(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match[1]) * 1024;
}

/** The one extension host of the window that is not one of `old`, once it runs. */
async function newExtensionHost(group, old, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const fresh = extensionHosts(group).filter((pid) => !old.includes(pid));
    if (fresh.length === 1) return fresh[0];
    if (Date.now() > deadline) throw new Error(`expected one new extension host, found ${fresh.length}`);
    await sleep(250);
  }
}

/** Waits until `pid`'s resident memory moved less than 1% over 5 s (the workbench's startup work done); gives up after 60 s. */
async function quiet(pid) {
  const deadline = Date.now() + 60_000;
  let last = rssOf(pid);
  for (;;) {
    await sleep(5_000);
    const now = rssOf(pid);
    if (Math.abs(now - last) < last / 100 || Date.now() > deadline) return now;
    last = now;
  }
}

/** Runs GigaChat: Semantic Search from the command palette with `query`, waits for its results, closes them. */
async function searchFromPalette(page, query) {
  const input = page.locator('.quick-input-widget input').first();
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Semantic Search' }).first();
  // Just after a reload the workbench may still move the focus (a restored view), which closes the palette: open it again then.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('F1');
      await input.fill('>GigaChat: Semantic Search', { timeout: 5_000 });
      await row.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 5) throw error;
      await page.keyboard.press('Escape');
      await sleep(2_000);
    }
  }
  await page.keyboard.press('Enter');
  // The command opens the index first (the cache loaded, the workspace rescanned), then asks for the query.
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: 'Semantic Search' })
    .first()
    .waitFor({ timeout: 5 * 60_000 });
  await input.fill(query);
  await page.keyboard.press('Enter');
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: `for “${query}”` })
    .first()
    .waitFor({ timeout: 5 * 60_000 });
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.keyboard.press('Escape');
}

/**
 * When the benchmark suite indexed its workspace in this window, reloads it and measures one search
 * (see the module comment); the figures go into the bench's file (GIGACHAT_IT_BENCH_OUT) beside the
 * suite's, as `searchAfterReload`. Returns the check's result for the report.
 */
async function searchAfterReload(ctx, results) {
  const out = process.env.GIGACHAT_IT_BENCH_OUT;
  if (!out || !results.tests.some((test) => test.fullTitle === INDEXED_TEST && test.state === 'passed')) return [];
  const started = Date.now();
  const title = 'after the suite the host memory of one search after a reload is measured';
  try {
    const figures = JSON.parse(fs.readFileSync(out, 'utf8'));
    const { chunks, query } = figures.indexed;
    const group = ctx.server.pid;
    const old = extensionHosts(group);
    await ctx.page.reload();
    await ctx.page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: 60_000 });
    const host = await newExtensionHost(group, old, 60_000);
    const before = await quiet(host);
    let peak = before;
    const poll = setInterval(() => {
      try {
        peak = Math.max(peak, rssOf(host));
      } catch {
        // the host ended: the samples below fail and say so
      }
    }, 100);
    const samples = [];
    const searchStarted = Date.now();
    try {
      await searchFromPalette(ctx.page, query);
      const searchMs = Date.now() - searchStarted;
      for (const at of SAMPLE_AFTER_MS) {
        await sleep(Math.max(0, at - (Date.now() - searchStarted)));
        samples.push(rssOf(host));
      }
      figures.searchAfterReload = {
        chunks,
        searchMs,
        rssBefore: before,
        sampledAtMs: SAMPLE_AFTER_MS,
        /** Per chunk above `rssBefore` at each of `sampledAtMs`, and the highest every 100 ms. */
        rssSampledPerChunk: samples.map((rss) => (rss - before) / chunks),
        rssPeakPerChunk: (Math.max(peak, ...samples) - before) / chunks,
      };
    } finally {
      clearInterval(poll);
    }
    fs.writeFileSync(out, JSON.stringify(figures));
    console.log(`[integration] search after a reload: ${JSON.stringify(figures.searchAfterReload)}`);
    return [{ fullTitle: title, state: 'passed', durationMs: Date.now() - started }];
  } catch (error) {
    return [{ fullTitle: title, state: 'failed', error: { message: String(error.message), stack: error.stack } }];
  }
}

module.exports = { searchAfterReload };
