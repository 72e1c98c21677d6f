// Base64 VLQ, the encoding of a source map's `mappings` (https://tc39.es/ecma426/): what scripts/chunk-sources.mjs
// and scripts/bench-trace.mjs read a built chunk's map with.
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * One segment of a mappings line ("AAAA", "kBAAI…") as its numbers, each relative to the segment before it:
 * [generated column, source index, source line, source column, name index], the first one to five of them.
 */
export function decodeSegment(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.indexOf(ch);
    if (digit < 0) throw new Error(`not a base64 VLQ digit: ${JSON.stringify(ch)} in ${JSON.stringify(segment)}`);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >> 1) : value >> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}
