// Reading the few entries an import needs out of a ZIP (.docx, .odt, project zips) without trusting it: the central
// directory is read first and bounded (entry count, declared sizes), and each entry is inflated as a stream that
// stops the moment it passes its declared size or the import's cap, so a few KB that "unpack to a gigabyte" cost
// a few KB of work. fflate does the inflating; nothing here touches a file system.
import { Inflate } from "fflate";

/** Entries in the archive; bytes one entry may unpack to; bytes all entries read may; bytes the directory may declare. */
export const zipLimits = {
  entries: 10_000,
  entryBytes: 64 * 1024 * 1024,
  totalBytes: 128 * 1024 * 1024,
  declaredBytes: 512 * 1024 * 1024,
} as const;

/** A refusal the route answers with 400 (or 413 for `tooLarge`), its message completing "could not be read: …". */
export class BadFile extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

export type ZipEntry = { name: string; method: number; compressedSize: number; size: number; localOffset: number };
export type ZipArchive = {
  entries: Map<string, ZipEntry>;
  read: (name: string) => Uint8Array | null;
  text: (name: string) => string | null;
};

const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/** The archive's directory, or a BadFile naming what is wrong (not a zip, cut short, too many entries, a bomb). */
export function openZip(bytes: Uint8Array): ZipArchive {
  if (!isZip(bytes)) throw new BadFile("it is not a zip archive (the file's contents do not match its type)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  // The end-of-central-directory record sits in the last 22 bytes plus a comment of up to 65,535.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new BadFile("the archive is incomplete (it was cut short)");
  const count = view.getUint16(end + 10, true);
  const dirSize = view.getUint32(end + 12, true);
  const dirAt = view.getUint32(end + 16, true);
  if (count === 0xffff || dirAt === 0xffffffff)
    throw new BadFile(`it has too many entries (more than ${zipLimits.entries.toLocaleString("en-US")})`);
  if (count > zipLimits.entries) throw new BadFile(`it has too many entries (more than ${zipLimits.entries.toLocaleString("en-US")})`);
  if (dirAt + dirSize > end) throw new BadFile("the archive is incomplete (it was cut short)");
  const decoder = new TextDecoder();
  const entries = new Map<string, ZipEntry>();
  let at = dirAt;
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== 0x02014b50)
      throw new BadFile("the archive is damaged (its directory does not add up)");
    const nameLength = view.getUint16(at + 28, true);
    const entry: ZipEntry = {
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    };
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff)
      throw new BadFile("it unpacks to far more than an import may (a zip bomb?)");
    declared += entry.size;
    // Many directory entries over one small stream (the classic bomb) declare far more than any real project holds.
    if (declared > zipLimits.declaredBytes) throw new BadFile("it unpacks to far more than an import may (a zip bomb?)");
    if (!entries.has(entry.name)) entries.set(entry.name, entry);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  let unpacked = 0;
  const read = (name: string): Uint8Array | null => {
    const entry = entries.get(name);
    if (!entry) return null;
    if (entry.size > zipLimits.entryBytes || unpacked + entry.size > zipLimits.totalBytes) {
      throw new BadFile("it unpacks to far more than an import may (a zip bomb?)");
    }
    const local = entry.localOffset;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50)
      throw new BadFile("the archive is damaged (an entry is missing)");
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + entry.compressedSize > bytes.length) throw new BadFile("the archive is incomplete (it was cut short)");
    const packed = bytes.subarray(start, start + entry.compressedSize);
    unpacked += entry.size;
    if (entry.method === 0) return packed.slice(0, entry.size);
    if (entry.method !== 8) throw new BadFile(`an entry uses a compression this import does not read (${entry.method})`);
    return inflateBounded(packed, entry.size);
  };
  return {
    entries,
    read,
    text: (name) => {
      const data = read(name);
      return data === null ? null : decoder.decode(data);
    },
  };
}

/** Inflates at most `size` bytes (the size the directory declared); more is a lie, and refused as a bomb. */
function inflateBounded(packed: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let length = 0;
  let done = false;
  const inflate = new Inflate((chunk, final) => {
    if (length + chunk.length > size) throw new BadFile("it unpacks to more than its directory says (a zip bomb?)");
    out.set(chunk, length);
    length += chunk.length;
    if (final) done = true;
  });
  try {
    for (let at = 0; at < packed.length; at += 65_536) {
      inflate.push(packed.subarray(at, Math.min(packed.length, at + 65_536)), at + 65_536 >= packed.length);
    }
  } catch (error) {
    if (error instanceof BadFile) throw error;
    throw new BadFile("the archive is damaged (an entry does not unpack)");
  }
  if (!done && packed.length > 0) throw new BadFile("the archive is incomplete (it was cut short)");
  return length === size ? out : out.subarray(0, length);
}
