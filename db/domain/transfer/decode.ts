// The bytes of a text file as text. Spreadsheets are saved as UTF-8 (with or without a byte-order mark) or, by
// Excel's "CSV (Comma delimited)" on Windows, as Windows-1252. Anything else is refused by name rather than
// stored with U+FFFD where the accents were.

export type Decoded = { ok: true; text: string } | { ok: false; error: string };

const SAVE_AS_UTF8 = 'save it as "CSV UTF-8" and import again';
export const notTextMessage = (encoding: string) => `This file is ${encoding} text, not UTF-8 or Windows-1252: ${SAVE_AS_UTF8}`;
export const UNKNOWN_ENCODING = `This file is not UTF-8 or Windows-1252 text: ${SAVE_AS_UTF8}`;

/** Bytes Windows-1252 leaves undefined: a file holding them was written in another code page. */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

function startsWith(bytes: Uint8Array, prefix: number[]) {
  return prefix.every((b, i) => bytes[i] === b);
}

/**
 * Double-byte code pages (Shift-JIS, GBK, Big5…) decode "fine" as Windows-1252 but into long runs of accented
 * letters and symbols. In Western text an accented letter sits among plain ones (at most a quote beside it:
 * `“É`); so when most non-ASCII bytes come in runs of three or more, the file is not Windows-1252.
 */
function looksLikeWindows1252(bytes: Uint8Array) {
  let high = 0;
  let inLongRuns = 0;
  let run = 0;
  for (let i = 0; i <= bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (i < bytes.length && (b === 0 || UNDEFINED_IN_1252.has(b))) return false;
    if (b >= 0x80) {
      high++;
      run++;
      continue;
    }
    if (run >= 3) inLongRuns += run;
    run = 0;
  }
  return inLongRuns * 2 <= high;
}

export function decodeText(input: ArrayBuffer | Uint8Array): Decoded {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return { ok: false, error: notTextMessage("UTF-16") };
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) {
    try {
      return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(3)) };
    } catch {
      return { ok: false, error: UNKNOWN_ENCODING };
    }
  }
  // UTF-16 without a byte-order mark: every other byte of ASCII text is zero.
  if (bytes.length >= 4 && (bytes[1] === 0 || bytes[0] === 0) && bytes.subarray(0, 64).filter((b) => b === 0).length >= 8)
    return { ok: false, error: notTextMessage("UTF-16") };
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    // not UTF-8: Excel's Windows code page, when the bytes can be that
  }
  if (!looksLikeWindows1252(bytes)) return { ok: false, error: UNKNOWN_ENCODING };
  return { ok: true, text: new TextDecoder("windows-1252").decode(bytes) };
}
