/**
 * The chat view's Content-Security-Policy, shared by the host's page and the browser test harness
 * so the tests run under exactly the policy users get. Directive by directive:
 * - default-src 'none': nothing loads unless a directive below allows it;
 * - img-src: only files from the view's resource roots (`webview.cspSource`): the extension's own
 *   and the pictures the model drew, which the host keeps in its storage folder (one of the roots).
 *   No data: URIs (a picture never travels inside a message) and never remote images, so model
 *   output cannot make the view fetch a tracking pixel;
 * - style-src / font-src: only the extension's stylesheets (its own and KaTeX's, for formulas) and
 *   KaTeX's fonts, all files of the extension; no inline styles (the few styles KaTeX sets go
 *   through the CSSOM, which this does not restrict: see mathTypeset.ts);
 * - script-src: only the script carrying this page's nonce (fresh and random on every load).
 */
export function chatContentSecurityPolicy(resourceSource: string, nonce: string): string {
  return ["default-src 'none'", `img-src ${resourceSource}`, `style-src ${resourceSource}`, `font-src ${resourceSource}`, `script-src 'nonce-${nonce}'`].join(
    '; ',
  );
}
