// The suite runs inside the extension host; the browser that shows the workbench (and so the
// webviews) is driven from the outer runner's process. This lets a test ask the outer runner to do
// something there, e.g. take a screenshot or click in a webview: the runner serves an HTTP endpoint
// on loopback and hands its address to the extension host through GIGACHAT_IT_CONTROL.
// Handlers live in test/harness/runIntegration.js (`outerHandlers`). Under @vscode/test-electron
// there is no outer runner: tests that need one skip themselves (see hasOuterRunner()).

/** True when running under test/harness/runIntegration.js. */
export function hasOuterRunner(): boolean {
  return Boolean(process.env.GIGACHAT_IT_CONTROL);
}

/** Calls the outer runner's handler `method`; resolves to what it returned, rejects with its error. */
export async function callOuter<T = unknown>(method: string, params: unknown = {}): Promise<T> {
  const control = process.env.GIGACHAT_IT_CONTROL;
  if (!control) throw new Error('no outer runner: this test needs test/harness/runIntegration.js');
  const response = await fetch(control, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: string };
  if (!response.ok || body.error !== undefined) throw new Error(`outer ${method}: ${body.error ?? response.status}`);
  return body.result as T;
}
