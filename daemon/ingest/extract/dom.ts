// The project compiles without the DOM library, so the few DOM members used here are declared structurally.
export interface DomNode {
  readonly nodeType: number;
  readonly textContent: string | null;
  readonly childNodes: Iterable<DomNode>;
}
export interface DomElement extends DomNode {
  readonly tagName: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
}
export interface DomDocument {
  readonly body: DomElement | null;
  readonly documentElement: DomElement | null;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
}
