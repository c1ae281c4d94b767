/**
 * Inline SVG icons in the style of VS Code's codicons (16×16, currentColor), built with the DOM so no
 * icon font or image file needs to be allowed by the CSP. `aria-hidden`: the button carries the label.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

const PATHS = {
  send: 'M1.7 14.3 15 8 1.7 1.7l.9 5.3L10 8l-7.4 1 -.9 5.3Z',
  stop: 'M4 4h8v8H4z',
  add: 'M14 7v1H8.5v5.5h-1V8H2V7h5.5V1.5h1V7H14Z',
  history: 'M13.5 8a5.5 5.5 0 1 1-1.6-3.9H10v1h3.5V1.6h-1v1.7A6.5 6.5 0 1 0 14.5 8h-1ZM7.5 4.5v4l3 1.8.5-.9-2.5-1.5V4.5h-1Z',
  refresh: 'M13.5 8a5.5 5.5 0 1 1-1.6-3.9H10v1h3.5V1.6h-1v1.7A6.5 6.5 0 1 0 14.5 8h-1Z',
  copy: 'M4 4V2.5l1-1h7.5l1 1V10l-1 1H11v1.5l-1 1H2.5l-1-1V5l1-1H4Zm1 0h5l1 1v5h1.5V2.5H5V4Zm-2.5 1v7.5H10V5H2.5Z',
  check: 'M14.4 3.6 6 12 1.6 7.6l.7-.7L6 10.6l7.7-7.7.7.7Z',
  insert: 'M8 1v8.3l2.6-2.6.7.7L7.5 11.2 3.7 7.4l.7-.7L7 9.3V1h1ZM2 13h11v1H2v-1Z',
  openEditor: 'M9 2h5v5h-1V3.7L7.4 9.3l-.7-.7L12.3 3H9V2ZM3 4h4v1H3v8h8V9h1v4l-1 1H3l-1-1V5l1-1Z',
  edit: 'M11.5 1.3 14.7 4.5 5.6 13.6 1.4 14.6l1-4.2 9.1-9.1Zm0 1.4L3.3 10.9l-.6 2.4 2.4-.6 8.2-8.2-1.8-1.8ZM10 4.2l1.8 1.8-.7.7-1.8-1.8.7-.7Z',
  trash: 'M10 3h3v1h-1v9l-1 1H5l-1-1V4H3V3h3V2a1 1 0 0 1 1-1h2a1 1 0 0 1 1 1v1ZM9 2H7v1h2V2ZM5 4v9h6V4H5Zm1 2h1v5H6V6Zm3 0h1v5H9V6Z',
  close: 'm8 8.7 3.6 3.6.7-.7L8.7 8l3.6-3.6-.7-.7L8 7.3 4.4 3.7l-.7.7L7.3 8l-3.6 3.6.7.7L8 8.7Z',
  arrowDown: 'm8 13.7-4.9-4.9.7-.7L7.5 11.8V2h1v9.8l3.7-3.7.7.7L8 13.7Z',
  save: 'M8 1v8.3l2.6-2.6.7.7L7.5 11.2 3.7 7.4l.7-.7L7 9.3V1h1ZM2 13h11v1H2v-1Z',
  error: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm0 1a6 6 0 1 0 0 12A6 6 0 0 0 8 2Zm-.5 8.5h1v1h-1v-1Zm0-6h1v5h-1v-5Z',
  warning: 'M7.56 1h.88l6.54 12.26-.44.74H1.46L1 13.26 7.56 1ZM8 2.28 2.28 13h11.44L8 2.28ZM8.5 12h-1v-1h1v1Zm-1-2V6h1v4h-1Z',
  info: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm0 1a6 6 0 1 0 0 12A6 6 0 0 0 8 2Zm-.5 5h1v4.5h-1V7Zm0-2.5h1v1h-1v-1Z',
  key:
    'M10.5 1a4.5 4.5 0 0 1 0 9 4.5 4.5 0 0 1-1.3-.2L8 11H6.5v1.5H5V14H1.5l-.5-.5v-2.1l.1-.4 5.1-5.1A4.5 4.5 0 0 1 10.5 1Z' +
    'm0 1A3.5 3.5 0 0 0 7.1 6.3l-.1.3-.1.2L2 11.6V13h2v-1.5h1.5V10h2l1.5-1.4.3-.1A3.5 3.5 0 1 0 10.5 2Zm1 1.5a1 1 0 1 1 0 2 1 1 0 0 1 0-2Z',
  sparkle:
    'M8 1.5c.3 2.9 1.6 4.2 4.5 4.5-2.9.3-4.2 1.6-4.5 4.5-.3-2.9-1.6-4.2-4.5-4.5 2.9-.3 4.2-1.6 4.5-4.5Z' +
    'M12.5 10c.15 1.5.8 2.1 2 2.25-1.2.15-1.85.8-2 2.25-.15-1.45-.8-2.1-2-2.25 1.2-.15 1.85-.75 2-2.25Z',
  account:
    'M8 1a3.5 3.5 0 1 1 0 7 3.5 3.5 0 0 1 0-7Zm0 1a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5Z' +
    'M3 15H2v-1.5C2 11 4 9.5 6 9.5h4c2 0 4 1.5 4 4V15h-1v-1.5c0-1.8-1.5-3-3-3H6c-1.5 0-3 1.2-3 3V15Z',
  image:
    'M2 3h12l.5.5v9l-.5.5H2l-.5-.5v-9L2 3Zm.5 1v6.3l3-3h.7l2.3 2.3 1.3-1.3h.7l3 3V4h-11Zm0 8h11v-.3l-3.3-3.3-1.3 1.3h-.7L5.9 7.4l-3.4 3.4V12Z' +
    'm8-6.5a1 1 0 1 1 0 2 1 1 0 0 1 0-2Z',
  file: 'M13.7 4.4 10.6 1.3 10.2 1H3.5l-.5.5v13l.5.5h9l.5-.5V4.8l-.3-.4ZM12 14H4V2h5.5v3.5l.5.5H12v8Zm-1.5-9V2.4L12.6 5h-2.1Z',
  globe:
    'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm-.5 1.04A6 6 0 0 0 5.2 5.5h2.3V2.04Zm1 0V5.5h2.3A6 6 0 0 0 8.5 2.04ZM4.15 5.5A7.3 7.3 0 0 1 5.6 2.6 6 6 0 0 0 2.5 5.5h1.65Zm7.7 0h1.65a6 6 0 0 0-3.1-2.9 7.3 7.3 0 0 1 1.45 2.9ZM2.1 6.5a6 6 0 0 0 0 3h1.85a13 13 0 0 1 0-3H2.1Zm2.86 0a12 12 0 0 0 0 3H7.5v-3H4.96Zm3.54 0v3h2.54a12 12 0 0 0 0-3H8.5Zm3.55 0a13 13 0 0 1 0 3h1.85a6 6 0 0 0 0-3h-1.85ZM2.5 10.5a6 6 0 0 0 3.1 2.9 7.3 7.3 0 0 1-1.45-2.9H2.5Zm2.7 0a6 6 0 0 0 2.3 3.46V10.5H5.2Zm3.3 0v3.46a6 6 0 0 0 2.3-3.46H8.5Zm3.35 0a7.3 7.3 0 0 1-1.45 2.9 6 6 0 0 0 3.1-2.9h-1.65Z',
  search: 'M15.25 14.19 10.7 9.64A5.5 5.5 0 1 0 9.64 10.7l4.55 4.55 1.06-1.06ZM2 6.5a4.5 4.5 0 1 1 9 0 4.5 4.5 0 0 1-9 0Z',
  comment: 'M2.5 2h11l.5.5v8l-.5.5H8.2l-2.9 2.9-.8-.4V11h-2l-.5-.5v-8l.5-.5ZM3 10h2v2.3L7.3 10H13V3H3v7Z',
} as const;

export type IconName = keyof typeof PATHS;

export function icon(name: IconName, className = 'icon'): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', className);
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', PATHS[name]);
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('fill-rule', 'evenodd');
  path.setAttribute('clip-rule', 'evenodd');
  svg.appendChild(path);
  return svg;
}
