/**
 * Whether an address is this machine's own: `localhost` (and names under it, RFC 6761), 127.0.0.0/8,
 * `::1`, and 127.x written as an IPv4-mapped IPv6 address. A request to it never leaves the machine,
 * so it goes neither through a proxy (which would reach its own loopback, or carry the token to the
 * company's proxy) nor gets the warning about plain http.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return isLoopbackHost(host);
}

/** `host` as URL's `hostname` gives it: lower case, an IPv6 address in brackets, an IPv4 one normalized (`127.1` is `127.0.0.1`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)) return true;
  // URL writes ::1 as `[::1]` and ::ffff:127.0.0.1 as `[::ffff:7f00:1]`.
  return bare === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(bare);
}

/**
 * Whether a request to `url` would carry its key and the code unencrypted across a network: plain
 * http to another machine. (http to this machine never leaves it.)
 */
export function travelsUnencrypted(url: string): boolean {
  try {
    return new URL(url.trim()).protocol === 'http:' && !isLoopbackUrl(url.trim());
  } catch {
    return false;
  }
}
