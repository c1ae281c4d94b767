// `npm run emulator`: runs the emulator by hand, e.g. to point a development copy of the extension
// at it. The CA goes to a stable path (.vscode-test/emulator/ca.pem) so settings can name it once.
//   options: --latency <ms>  --token-lifetime <s>  --stream-delay <ms>  --max-concurrent <n>  --streams <n>  --seed <n>
//            (--streams: every account's streams; default the service's quota, an individual's key one)
//   env:     GIGACHAT_EMULATOR_PORT (default 0: the OS picks a free port, printed below)
import { resolve } from 'node:path';
import { Emulator, SERVICE_STREAMS, type EmulatorOptions } from './index';

/** The bundle runs from out/test/emulator/, so the repository root is three levels up. */
const CERT_DIR = resolve(__dirname, '..', '..', '..', '.vscode-test', 'emulator');

function numberArg(args: string[], name: string): number | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`${name} needs a non-negative number, got ${String(args[at + 1])}`);
    process.exit(2);
  }
  return value;
}

function parseOptions(args: string[]): EmulatorOptions {
  const port = Number(process.env.GIGACHAT_EMULATOR_PORT ?? 0);
  const tokenLifetimeS = numberArg(args, '--token-lifetime');
  const streams = numberArg(args, '--streams');
  return {
    port: Number.isInteger(port) && port >= 0 ? port : 0,
    certDir: CERT_DIR,
    latencyMs: numberArg(args, '--latency'),
    tokenLifetimeMs: tokenLifetimeS === undefined ? undefined : tokenLifetimeS * 1000,
    streamDelayMs: numberArg(args, '--stream-delay'),
    maxConcurrent: numberArg(args, '--max-concurrent'),
    streamsPerScope: streams === undefined ? SERVICE_STREAMS : Object.fromEntries(Object.keys(SERVICE_STREAMS).map((scope) => [scope, streams])),
    seed: numberArg(args, '--seed'),
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const emulator = await Emulator.start(options);
  console.log(
    [
      'GigaChat emulator is running.',
      `  Auth URL:          ${emulator.authUrl}`,
      `  Base URL:          ${emulator.baseUrl}`,
      `  CA certificate:    ${emulator.caPath}`,
      `  Authorization key: ${emulator.authorizationKey}`,
      '  Scopes:            GIGACHAT_API_PERS, GIGACHAT_API_B2B, GIGACHAT_API_CORP',
      `  Streams:           ${Object.entries(SERVICE_STREAMS)
        .map(([scope]) => `${scope.replace('GIGACHAT_API_', '')} ${String(options.streamsPerScope?.[scope] ?? 'unlimited')}`)
        .join(', ')} (a request beyond gets 429)`,
      `  Seed:              ${emulator.seed}`,
      'Prompt markers: [long] long markdown answer, [blacklist] topic-filter refusal; "draw ..." makes a picture;',
      '  with functions offered, [call name {"arg":1}] (or naming a function) makes the model call it.',
      'Files: POST /files takes pictures (jpeg, png, tiff, bmp; only GigaChat-2-Pro and -Max see them) and documents.',
      'Stop with Ctrl+C.',
    ].join('\n'),
  );
  // One line for scripts: parse everything after the marker as JSON.
  const ready = { authUrl: emulator.authUrl, baseUrl: emulator.baseUrl, caPath: emulator.caPath, key: emulator.authorizationKey };
  console.log(`EMULATOR_READY ${JSON.stringify(ready)}`);

  const stop = (signal: NodeJS.Signals) => {
    console.log(`\n${signal}: stopping the emulator…`);
    emulator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('The emulator could not start:', error);
  process.exit(1);
});
