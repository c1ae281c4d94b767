/**
 * Questions a developer asks of real code, each with the place that answers it: in this repository's
 * src and in undici's lib (node_modules, pinned by package-lock.json), in English and Russian, as
 * prose, identifiers and error messages. Written by hand: lines 1-based and inclusive, as they were
 * when written, and `anchor`, text on the answer's first line. The answer is found again by its
 * anchor (the occurrence nearest the written line), keeping its length, so that an edit elsewhere in
 * the file does not move it (test/unit/project/retrievalQuestions.test.ts checks every anchor is there).
 * Used by test/bench/retrieval.ts.
 */

import * as fs from 'node:fs';
import { repoRoot as root } from '../unit/support/repoRoot';
import * as path from 'node:path';

export interface RetrievalQuestion {
  question: string;
  /** Relative to the repository's root. */
  file: string;
  /** First and last line of the answer, 1-based, inclusive. */
  lines: [number, number];
  /** Text found on the answer's first line. */
  anchor: string;
}

const UNDICI = 'node_modules/undici/lib/';

/** Per file: question, first line, last line (as written), anchor. */
const ANSWERS: [file: string, questions: [question: string, first: number, last: number, anchor: string][]][] = [
  [
    'src/core/service/auth.ts',
    [
      ['where is the access token reused until it expires and refreshed', 35, 39, 'async getToken(signal?: AbortSignal)'],
      ['expires_at in seconds or milliseconds, how is it normalised', 88, 90, 'export function normalizeExpiry('],
      ['как из ключа авторизации собирается заголовок Basic', 97, 100, 'export function basicCredentials('],
      ['forget the token after a 401 from the service', 54, 61, 'invalidate(token?: string)'],
      ['TokenManager', 20, 85, 'export class TokenManager {'],
    ],
  ],
  [
    'src/core/service/retry.ts',
    [
      ['exponential backoff with jitter between retries', 61, 64, 'export function backoffDelay('],
      ['which HTTP statuses are retried', 28, 33, 'export function isRetryable('],
      ['повтор запроса при ошибке с ожиданием Retry-After', 39, 58, 'export async function withRetries<'],
    ],
  ],
  [
    'src/core/service/sse.ts',
    [
      ['where are server-sent event lines split across network chunks', 130, 156, 'push(text: string, end = false)'],
      ['разбор JSON из события потока ответа', 169, 175, 'export function parseEventJson('],
      ['turn a byte stream into SSE events', 19, 41, 'export async function* sseEvents('],
    ],
  ],
  ['src/core/base/redact.ts', [['hide bearer tokens and passwords before writing to the log', 16, 18, 'export function redactSecrets(']]],
  [
    'src/core/network/proxyRoutes.ts',
    [
      ['how is the proxy chosen for a URL and when is it bypassed', 80, 84, 'for(url: string): Proxy | undefined'],
      ['прокси из переменной окружения HTTPS_PROXY или из настроек', 100, 107, 'function configuredProxy('],
      ['withoutCredentials', 139, 141, 'export function withoutCredentials('],
    ],
  ],
  ['src/core/service/mediaReply.ts', [['где ищутся теги img и video в ответе модели', 27, 50, 'export function parseMediaReply(']]],
  ['src/core/network/certificatePin.ts', [['certificate fingerprint does not match the pinned sha256', 83, 88, 'export function checkPin(']]],
  ['src/core/service/tokenExchange.ts', [['OAuth token request with RqUID and scope', 25, 56, 'export async function exchangeToken(']]],
  ['src/core/network/transportErrors.ts', [['ECONNREFUSED or timeout: what error does the user see', 38, 69, 'export function describeTransportError(']]],
  ['src/core/service/responseBody.ts', [['answered with larger than the most accepted for it', 75, 82, 'function tooLarge(']]],
  ['src/core/service/keyScopes.ts', [['перебор областей доступа ключа PERS, B2B, CORP', 29, 40, 'export async function findKeyScope(']]],
  ['src/core/base/atomicFile.ts', [['write a file atomically through a temp file and rename', 9, 18, 'export async function replaceFile(']]],
  ['src/core/service/webSources.ts', [['replace [sources=[1,2]] markers with links', 49, 63, 'export function linkSourceMarkers(']]],
  [
    'src/core/service/embeddingBatches.ts',
    [
      ['split texts into embedding batches by count and characters', 31, 46, 'export function planBatches('],
      ['413 payload too large: halve the embedding batch', 48, 64, 'async function embedSplittingOnTooLarge('],
    ],
  ],
  ['src/core/service/tokenCounter.ts', [['оценка числа токенов по длине текста', 21, 23, 'export function estimateTokens(']]],
  ['src/core/base/sharedRun.ts', [['several callers join one run already going', 15, 35, 'async join(start: (signal: AbortSignal) => Promise<T>']]],
  ['src/core/service/functionNames.ts', [['tool name to a function name the service accepts', 12, 15, 'export function serviceFunctionName(']]],
  ['src/core/base/abortable.ts', [['reject a promise when the AbortSignal aborts', 7, 15, 'export function abortable<']]],
  [
    'src/host/errors/errorActions.ts',
    [['показать ошибку пользователю с кнопкой, которая её исправляет', 90, 96, 'export async function showErrorNotification(']],
  ],
  ['src/host/countMessage.ts', [['plural forms of a count in a message', 9, 11, 'export function countMessage(']]],
  ['src/core/search/relevance.ts', [['strong, good or weak match of a search result', 27, 31, 'export function matchStrength(']]],
  ['src/core/network/proxyAgent.ts', [['how is the undici agent for a proxy built', 17, 49, 'export function createProxyAgent(']]],
  [`${UNDICI}dispatcher/env-http-proxy-agent.js`, [['NO_PROXY: which hosts skip the proxy', 81, 110, '#shouldProxy (hostname, port) {']]],
  [
    `${UNDICI}dispatcher/proxy-agent.js`,
    [
      ['Proxy-Authorization should be sent in ProxyAgent constructor', 311, 317, 'function throwIfProxyAuthIsSent (headers) {'],
      ['как ProxyAgent настраивает токен авторизации прокси', 119, 128, 'if (opts.auth && opts.token) {'],
    ],
  ],
  [`${UNDICI}handler/retry-handler.js`, [['Retry-After header given as an HTTP date', 13, 16, 'function calculateRetryAfterHeader (retryAfter) {']]],
  [
    `${UNDICI}handler/redirect-handler.js`,
    [
      [
        'which headers are dropped when following a redirect to another origin',
        235,
        271,
        'function cleanRequestHeaders (headers, removeContent, unknownOrigin) {',
      ],
      ['redirect 303 changes the method to GET', 104, 172, 'onResponseStart (controller, statusCode, headers, statusMessage) {'],
    ],
  ],
  [
    `${UNDICI}core/util.js`,
    [
      ['keep-alive timeout from the Keep-Alive header', 406, 409, 'function parseKeepAliveTimeout (val) {'],
      ['parseHeaders', 436, 480, 'function parseHeaders (headers, obj) {'],
      ['SNI server name for TLS from the host header', 289, 302, 'function getServerName (host) {'],
      ['разбор заголовка Content-Range', 786, 797, 'function parseRangeHeader (range) {'],
      ['is this a valid HTTP token for a header name', 740, 750, 'function isValidHTTPToken (characters) {'],
    ],
  ],
  [`${UNDICI}core/connect.js`, [['TLS session reuse when connecting a socket', 15, 66, 'const SessionCache = class WeakSessionCache {']]],
  [`${UNDICI}util/timers.js`, [['coarse fast timers ticking every 500 ms', 115, 188, 'function onTick () {']]],
  [`${UNDICI}web/fetch/data-url.js`, [['parse a data: URL into its MIME type and body', 21, 116, 'function dataURLProcessor (dataURL) {']]],
  [`${UNDICI}web/cookies/parse.js`, [['parse a Set-Cookie header', 14, 86, 'function parseSetCookie (header) {']]],
  [`${UNDICI}dispatcher/balanced-pool.js`, [['weighted round robin greatest common divisor', 36, 45, 'function getGreatestCommonDivisor (a, b) {']]],
  [
    `${UNDICI}cache/memory-cache-store.js`,
    [
      ['кэш ответа и заголовок Vary', 233, 245, 'function varyMatches (key, entry) {'],
      ['memory cache full: max size and max count', 85, 87, 'isFull () {'],
    ],
  ],
  [`${UNDICI}web/websocket/frame.js`, [['маска для кадров websocket', 21, 27, 'function generateMask () {']]],
  [
    `${UNDICI}dispatcher/client-h1.js`,
    [
      ['socket idle timeout', 801, 822, 'function onParserTimeout (parserWeakRef) {'],
      ['load the llhttp WebAssembly parser, with SIMD or without', 68, 104, 'function lazyllhttp () {'],
      ['where is the HTTP/1.1 request line and headers written to the socket', 1280, 1309, 'let header = `${method} ${path} HTTP/1.1'],
    ],
  ],
  [
    `${UNDICI}web/eventsource/eventsource-stream.js`,
    [['разбор строки потока событий EventSource: поля data, id, retry', 308, 380, 'parseLine (line, event) {']],
  ],
  [`${UNDICI}interceptor/dns.js`, [['DNS interceptor keeps the Host header', 18, 54, 'function normalizeHeaders (headers) {']]],
];

/** The 1-based line holding `anchor` nearest `written`, or undefined when the file no longer has it. */
function anchorLine(lines: readonly string[], anchor: string, written: number): number | undefined {
  let best: number | undefined;
  lines.forEach((line, i) => {
    if (line.includes(anchor) && (best === undefined || Math.abs(i + 1 - written) < Math.abs(best - written))) best = i + 1;
  });
  return best;
}

export const RETRIEVAL_QUESTIONS: RetrievalQuestion[] = ANSWERS.flatMap(([file, questions]) => {
  const text = fs.readFileSync(path.join(root, file), 'utf8').split(/\r\n|\r|\n/);
  return questions.map(([question, first, last, anchor]): RetrievalQuestion => {
    const start = anchorLine(text, anchor, first) ?? first;
    return { question, file, lines: [start, Math.min(start + last - first, text.length)], anchor };
  });
});
