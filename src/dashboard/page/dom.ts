/**
 * Building the page. Everything shown came from what agents recorded, so text only ever enters the DOM as text
 * nodes (`textContent`, `createTextNode`) and attributes are set one by one with `setAttribute`; nothing here parses
 * HTML. Links point inside the page only (`#/...` with each part URI-encoded).
 */

export type Child = Node | string | number | null | undefined | false;

export type Props = {
  class?: string;
  title?: string;
  href?: string;
  /** Other attributes, set verbatim with setAttribute (never event handlers). */
  attrs?: Record<string, string>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
};

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    if (props.class) el.className = props.class;
    if (props.title) el.title = props.title;
    if (props.href !== undefined) el.setAttribute("href", props.href);
    for (const [name, value] of Object.entries(props.attrs ?? {})) {
      if (!name.toLowerCase().startsWith("on")) el.setAttribute(name, value);
    }
    for (const [name, listener] of Object.entries(props.on ?? {})) el.addEventListener(name, listener as EventListener);
  }
  append(el, children);
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element; attribute values are numbers or fixed words chosen by this code. */
export function s(tag: string, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  append(el, children);
  return el;
}

export function replace(target: Element, ...children: Child[]): void {
  target.replaceChildren();
  append(target, children);
}

/** A page link: `#/` followed by each part URI-encoded, so no recorded text can make it anything else. */
export function link(...parts: string[]): string {
  return `#/${parts.map((part) => encodeURIComponent(part)).join("/")}`;
}

export function time(ts: string | null): string {
  if (!ts) return "—";
  const at = Date.parse(ts);
  return Number.isFinite(at) ? new Date(at).toLocaleString() : ts;
}

/** "3 min ago" (the absolute time goes in the element's title). */
export function ago(ts: string | null, now = Date.now()): string {
  if (!ts) return "never";
  const at = Date.parse(ts);
  if (!Number.isFinite(at)) return ts;
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 60) return `${days} d ago`;
  return new Date(at).toLocaleDateString();
}

export function when(ts: string | null): HTMLElement {
  return h("time", { title: time(ts), attrs: ts ? { datetime: ts } : {} }, ago(ts));
}

export function count(n: number): string {
  return n.toLocaleString("en-US");
}

export function badge(text: string, tone: string): HTMLElement {
  return h("span", { class: `badge tone-${tone}` }, text);
}

export function empty(text: string): HTMLElement {
  return h("p", { class: "empty" }, text);
}

export function panel(title: string, ...children: Child[]): HTMLElement {
  return h("section", { class: "panel" }, h("h2", null, title), ...children);
}
