// A strict reader of multipart/form-data (RFC 7578), enough for POST /files: it finds the parts by
// the boundary the Content-Type header names and reads each part's name, filename and type. It is
// strict on purpose: a client that builds the form wrongly (no boundary, bare LF, no closing
// delimiter) gets the 400 it would get from the real service instead of a lucky parse.

export interface FormPart {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  content: Buffer;
}

const CRLF = '\r\n';

/** The boundary of a multipart/form-data Content-Type, or undefined when it is another type or has none. */
export function formBoundary(contentType: string | undefined): string | undefined {
  const match = /^multipart\/form-data\s*;(.*)$/i.exec(contentType ?? '');
  const boundary = match && /(?:^|;)\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(match[1]);
  return boundary ? (boundary[1] ?? boundary[2]) : undefined;
}

/** The parts of a form body, or undefined when the body is not a well-formed form with that boundary. */
export function parseForm(body: Buffer, boundary: string): FormPart[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  if (!body.subarray(0, delimiter.length).equals(delimiter)) return undefined;
  const parts: FormPart[] = [];
  let at = delimiter.length;
  for (;;) {
    const after = body.subarray(at, at + 2).toString('latin1');
    if (after === '--') return parts; // the closing delimiter
    if (after !== CRLF) return undefined;
    const next = body.indexOf(Buffer.from(`${CRLF}--${boundary}`), at + 2);
    if (next === -1) return undefined;
    const part = parsePart(body.subarray(at + 2, next));
    if (!part) return undefined;
    parts.push(part);
    at = next + 2 + delimiter.length;
  }
}

function parsePart(raw: Buffer): FormPart | undefined {
  const headerEnd = raw.indexOf(`${CRLF}${CRLF}`);
  if (headerEnd === -1) return undefined;
  // Header values are UTF-8 as browsers send them (a Russian file name arrives as raw UTF-8).
  const headers = new Map<string, string>();
  for (const line of raw.subarray(0, headerEnd).toString('utf8').split(CRLF)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition') ?? '';
  if (!/^form-data\s*;/i.test(disposition)) return undefined;
  const name = parameter(disposition, 'name');
  if (name === undefined) return undefined;
  return { name, filename: parameter(disposition, 'filename'), contentType: headers.get('content-type'), content: raw.subarray(headerEnd + 4) };
}

/** A quoted parameter of Content-Disposition, with the %22 / %0D / %0A escapes of the HTML form encoding undone. */
function parameter(disposition: string, key: string): string | undefined {
  const match = new RegExp(`;\\s*${key}="([^"]*)"`, 'i').exec(disposition);
  return match?.[1].replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}
