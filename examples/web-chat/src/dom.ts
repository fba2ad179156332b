// Element building for the page. Server text only ever becomes Text nodes (strings passed as
// children) or attribute values set through setAttribute; nothing is parsed as HTML.
import { imageDataUrl, type InlineImage } from './protocol.js';

/** A child of {@link h}: a node, or a string that becomes a Text node. */
export type Child = Node | string | undefined | false;

/** Creates an element with attributes (set as plain strings) and children (strings become Text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** Looks up an element the page's HTML must have. */
export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/**
 * An `<img>` for an image from the agent, as a `data:` URL of a raster `image/*` type; any other
 * mime type or data that is not base64 shows as a line of text instead.
 */
export function imageElement(image: InlineImage, alt: string): HTMLElement {
  const url = imageDataUrl(image);
  if (url === undefined) return h('p', { class: 'note' }, `(an attachment of type ${image.mimeType} is not shown)`);
  const img = h('img', { alt, decoding: 'async' });
  img.src = url;
  return img;
}
