// RTF (Scrivener's content.rtf) as paragraphs of runs with bold and italic: groups, \b/\i on and off, \par and
// \line, \'hh (Windows-1252) and \uN characters; font, colour, style, list and other destinations skipped.
import type { Paragraph, Run } from "./book";

const SKIP_DESTINATIONS = new Set([
  "fonttbl",
  "colortbl",
  "stylesheet",
  "info",
  "pict",
  "listtable",
  "listoverridetable",
  "header",
  "footer",
  "listtext",
  "expandedcolortbl",
  "generator",
]);
const CP1252: Record<number, string> = { 145: "‘", 146: "’", 147: "“", 148: "”", 150: "–", 151: "—", 133: "…", 149: "•", 128: "€" };

type State = { bold: boolean; italic: boolean; skip: boolean; uc: number };

export function rtfParagraphs(rtf: string): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let runs: Run[] = [];
  let state: State = { bold: false, italic: false, skip: false, uc: 1 };
  const stack: State[] = [];
  let skipChars = 0;
  const emit = (text: string) => {
    if (state.skip) return;
    if (skipChars > 0) {
      const cut = Math.min(skipChars, text.length);
      skipChars -= cut;
      text = text.slice(cut);
    }
    if (!text) return;
    const last = runs[runs.length - 1];
    if (last && last.bold === state.bold && last.italic === state.italic) last.text += text;
    else runs.push({ text, bold: state.bold, italic: state.italic });
  };
  const endParagraph = () => {
    paragraphs.push({ role: "text", runs });
    runs = [];
  };
  let i = 0;
  let groupStart = false;
  while (i < rtf.length) {
    const c = rtf[i];
    if (c === "{") {
      stack.push(state);
      if (stack.length > 200) break;
      state = { ...state };
      groupStart = true;
      i++;
      continue;
    }
    if (c === "}") {
      state = stack.pop() ?? state;
      i++;
      continue;
    }
    const wasStart = groupStart;
    groupStart = false;
    if (c === "\\") {
      const next = rtf[i + 1];
      if (next === "*") {
        if (wasStart) state.skip = true;
        i += 2;
        continue;
      }
      if (next === "'") {
        const code = Number.parseInt(rtf.slice(i + 2, i + 4), 16);
        emit(CP1252[code] ?? String.fromCharCode(code));
        i += 4;
        continue;
      }
      if (next === "\\" || next === "{" || next === "}") {
        emit(next);
        i += 2;
        continue;
      }
      if (next === "~") {
        emit("\u00a0");
        i += 2;
        continue;
      }
      if (next === "\n" || next === "\r") {
        if (!state.skip) endParagraph();
        i += 2;
        continue;
      }
      const m = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(rtf.slice(i + 1, i + 48));
      if (!m) {
        i += 2;
        continue;
      }
      i += 1 + m[0].length;
      const [, word, arg] = m;
      if (wasStart && SKIP_DESTINATIONS.has(word)) state.skip = true;
      else if (word === "b") state.bold = arg !== "0";
      else if (word === "i") state.italic = arg !== "0";
      else if (word === "plain") state.bold = state.italic = false;
      else if (word === "par" && !state.skip) endParagraph();
      else if ((word === "line" || word === "tab") && !state.skip) emit(" ");
      else if (word === "uc") state.uc = Number(arg ?? 1);
      else if (word === "u" && arg !== undefined) {
        const code = Number(arg) < 0 ? Number(arg) + 65536 : Number(arg);
        emit(String.fromCharCode(code));
        skipChars = state.uc;
      } else if (word === "emdash") emit("—");
      else if (word === "endash") emit("–");
      else if (word === "lquote") emit("‘");
      else if (word === "rquote") emit("’");
      else if (word === "ldblquote") emit("“");
      else if (word === "rdblquote") emit("”");
      continue;
    }
    if (c === "\n" || c === "\r") {
      i++;
      continue;
    }
    let end = i;
    while (end < rtf.length && !"\\{}\n\r".includes(rtf[end])) end++;
    emit(rtf.slice(i, end));
    i = end;
  }
  if (runs.length > 0) endParagraph();
  return paragraphs.filter((p) => p.runs.some((r) => r.text.trim()));
}
