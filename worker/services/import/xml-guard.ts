// A small, strict XML reader for imported files (Word, ODT, yWriter, Scrivener, novelWriter). None of those
// programs writes a DOCTYPE, so any DOCTYPE is refused outright: no external entity is ever fetched or read and no
// entity is ever expanded (the billion laughs never start). Only XML's five named entities and character
// references are decoded. Names keep their prefixes (`w:p`, `text:h`): each format's files use fixed ones.

import { BadFile } from "./zip-guard";

export type XmlElement = { name: string; attrs: Record<string, string>; children: XmlNode[] };
export type XmlNode = XmlElement | string;

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][\w.-]*);?/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    const named = NAMED[ref];
    if (named === undefined) throw new BadFile(`its XML uses an undeclared entity (&${ref.slice(0, 40)};)`);
    return whole.endsWith(";") ? named : `${named}`;
  });
}

/** Deeper than any real document nests: a hostile file cannot exhaust the stack of the walks below. */
const MAX_DEPTH = 200;

const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** The document's root element, or a BadFile for a DOCTYPE/entity declaration or XML that is not well formed. */
export function parseXml(source: string): XmlElement {
  const text = source.replace(/^\uFEFF/, "");
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new BadFile("its XML declares a DOCTYPE or entities, which an import never reads");
  const root: XmlElement = { name: "#document", attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let at = 0;
  while (at < text.length) {
    const lt = text.indexOf("<", at);
    const top = stack[stack.length - 1];
    if (lt < 0) {
      if (text.slice(at).trim()) top.children.push(decodeEntities(text.slice(at)));
      break;
    }
    if (lt > at) top.children.push(decodeEntities(text.slice(at, lt)));
    if (text.startsWith("<!--", lt)) {
      const close = text.indexOf("-->", lt + 4);
      if (close < 0) throw new BadFile("its XML is cut short");
      at = close + 3;
    } else if (text.startsWith("<![CDATA[", lt)) {
      const close = text.indexOf("]]>", lt + 9);
      if (close < 0) throw new BadFile("its XML is cut short");
      top.children.push(text.slice(lt + 9, close));
      at = close + 3;
    } else if (text.startsWith("<?", lt)) {
      const close = text.indexOf("?>", lt + 2);
      if (close < 0) throw new BadFile("its XML is cut short");
      at = close + 2;
    } else if (text.startsWith("</", lt)) {
      const close = text.indexOf(">", lt);
      if (close < 0) throw new BadFile("its XML is cut short");
      const name = text.slice(lt + 2, close).trim();
      if (stack.length < 2 || top.name !== name) throw new BadFile(`its XML is not well formed (</${name.slice(0, 40)}>)`);
      stack.pop();
      at = close + 1;
    } else {
      const close = findTagEnd(text, lt);
      if (close < 0) throw new BadFile("its XML is cut short");
      const selfClosing = text[close - 1] === "/";
      const inner = text.slice(lt + 1, selfClosing ? close - 1 : close);
      const name = /^[^\s/>]+/.exec(inner)?.[0];
      if (!name || name.startsWith("!")) throw new BadFile("its XML is not well formed");
      const attrs: Record<string, string> = {};
      for (const m of inner.slice(name.length).matchAll(ATTR)) attrs[m[1]] = decodeEntities(m[2] ?? m[3] ?? "");
      const element: XmlElement = { name, attrs, children: [] };
      top.children.push(element);
      if (!selfClosing) {
        if (stack.length > MAX_DEPTH) throw new BadFile("its XML is nested too deeply");
        stack.push(element);
      }
      at = close + 1;
    }
  }
  if (stack.length !== 1) throw new BadFile("its XML is cut short");
  const first = root.children.find((c): c is XmlElement => typeof c !== "string");
  if (!first) throw new BadFile("it holds no XML");
  return first;
}

/** The `>` ending the tag opened at `lt`, skipping quoted attribute values. */
function findTagEnd(text: string, lt: number) {
  let quote = "";
  for (let i = lt + 1; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i;
  }
  return -1;
}

export const elementsOf = (node: XmlElement) => node.children.filter((c): c is XmlElement => typeof c !== "string");
export const childNamed = (node: XmlElement, name: string) => elementsOf(node).find((c) => c.name === name);

/** Every descendant element with this name, in document order. */
export function descendants(node: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const child of node.children) {
    if (typeof child === "string") continue;
    if (child.name === name) out.push(child);
    descendants(child, name, out);
  }
  return out;
}

/** The text content of an element and its descendants. */
export function textOf(node: XmlNode): string {
  return typeof node === "string" ? node : node.children.map(textOf).join("");
}
