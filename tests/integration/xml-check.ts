// A strict XML well-formedness check for the files the exports write (no DOMParser in workerd): one root,
// tags nest and close, attributes quoted and not repeated, only XML's five entities and numeric references,
// no character XML 1.0 forbids. Returns the first problem, or null.

const NAME = "[A-Za-z_][\\w.:-]*";
const ATTRIBUTE = new RegExp(`\\s+(${NAME})\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`, "y");
const START = new RegExp(`<(${NAME})`, "y");
const BAD_ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const BAD_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export function xmlProblem(xml: string): string | null {
  let i = 0;
  const stack: string[] = [];
  let roots = 0;
  const text = (chunk: string) => {
    if (BAD_ENTITY.test(chunk)) return `bad entity near "${chunk.slice(0, 40)}"`;
    if (BAD_CHAR.test(chunk)) return "a character XML does not allow";
    if (stack.length === 0 && chunk.trim() !== "") return `text outside the root: "${chunk.trim().slice(0, 40)}"`;
    return null;
  };
  if (xml.startsWith("<?xml")) i = xml.indexOf("?>") + 2;
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const problem = text(lt === -1 ? xml.slice(i) : xml.slice(i, lt));
    if (problem) return problem;
    if (lt === -1) break;
    if (xml.startsWith("<!--", lt)) {
      const end = xml.indexOf("-->", lt);
      if (end === -1) return "unclosed comment";
      i = end + 3;
    } else if (xml.startsWith("<!DOCTYPE", lt)) {
      if (roots > 0 || stack.length > 0) return "DOCTYPE after the root";
      i = xml.indexOf(">", lt) + 1;
    } else if (xml.startsWith("<?", lt)) {
      i = xml.indexOf("?>", lt) + 2;
    } else if (xml.startsWith("</", lt)) {
      const m = new RegExp(`</(${NAME})\\s*>`, "y");
      m.lastIndex = lt;
      const end = m.exec(xml);
      if (!end) return `bad end tag at ${lt}`;
      const open = stack.pop();
      if (open !== end[1]) return `</${end[1]}> closes <${open ?? "nothing"}>`;
      i = m.lastIndex;
    } else {
      START.lastIndex = lt;
      const start = START.exec(xml);
      if (!start) return `bad tag at ${lt}: "${xml.slice(lt, lt + 20)}"`;
      let j = START.lastIndex;
      const seen = new Set<string>();
      for (;;) {
        ATTRIBUTE.lastIndex = j;
        const attr = ATTRIBUTE.exec(xml);
        if (!attr) break;
        if (seen.has(attr[1])) return `attribute ${attr[1]} repeated on <${start[1]}>`;
        seen.add(attr[1]);
        if (BAD_ENTITY.test(attr[2] ?? attr[3] ?? "")) return `bad entity in ${attr[1]} of <${start[1]}>`;
        j = ATTRIBUTE.lastIndex;
      }
      const close = /\s*(\/?)>/y;
      close.lastIndex = j;
      const end = close.exec(xml);
      if (!end) return `unquoted attribute or bad tag <${start[1]}> at ${lt}: "${xml.slice(lt, lt + 60)}"`;
      if (stack.length === 0) roots += 1;
      if (roots > 1) return "more than one root element";
      if (!end[1]) stack.push(start[1]);
      i = close.lastIndex;
    }
  }
  if (stack.length > 0) return `<${stack.at(-1)}> never closed`;
  return roots === 1 ? null : "no root element";
}

/** Text as written in XML, read back: the five entities decoded (&amp; last, so '&amp;lt;' stays '&lt;'). */
export const decodeXml = (xml: string) =>
  xml
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
