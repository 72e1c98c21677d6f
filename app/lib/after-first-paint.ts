/**
 * The page's JavaScript starts loading once the HTML has painted. Production pages need no script for their
 * first paint (the stylesheet is inline), so React Router's module preloads (which React puts in <head>) and
 * its bootstrap module script are sent inert and brought to life by a small inline script right after the
 * first frame: nothing competes with the HTML before it shows, and the page hydrates a frame later.
 * The markers are ASCII, so bytes are edited as they are: the head is held until `</head>` (nothing in it
 * renders before that anyway); after it, each chunk passes through, but for the few bytes a marker split
 * across two chunks needs.
 *
 * The markers are how React Router's <Scripts> and React write these tags today: after a React or React Router
 * upgrade, tests/integration/after-first-paint.test.ts (the real <Scripts> through the real stream) and the
 * first-paint test in tests/e2e/perf.spec.ts say whether they still match.
 */

/** The kill switch: false sends React Router's scripts as they are (entry.server.tsx then skips the rewrite). */
export const SCRIPTS_AFTER_FIRST_PAINT = true;

const encoder = new TextEncoder();
const HEAD_END = encoder.encode("</head>");
const PRELOAD = encoder.encode('<link rel="modulepreload"');
const INERT_PRELOAD = encoder.encode('<link rel="sw-modulepreload"');
const MODULE = encoder.encode(' type="module" async=""');
const INERT_MODULE = encoder.encode(' type="sw-module" async=""');

/**
 * Runs after DOMContentLoaded and one painted frame (or 100 ms on, should frames be paused: a hidden tab).
 * React Router's module script goes first; the preloads follow six to a task, since starting each one costs
 * the main thread about half a millisecond (two on a phone), and ~37 of them in one go made a long task.
 */
const BOOT = `(function(){var d=document,done=0;function go(){if(done++)return;var ls=[].slice.call(d.querySelectorAll('link[rel="sw-modulepreload"]')),s=d.querySelector('script[type="sw-module"]');if(s){var n=d.createElement("script");n.type="module";n.nonce=s.nonce;n.textContent=s.textContent;s.replaceWith(n)}(function next(){ls.splice(0,6).forEach(function(l){var n=d.createElement("link");n.rel="modulepreload";n.href=l.getAttribute("href");d.head.appendChild(n)});if(ls.length)setTimeout(next,0)})()}d.addEventListener("DOMContentLoaded",function(){requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,100)})})()`;

/** Where `pattern` starts in `bytes` at or after `from`, or -1. */
function indexOf(bytes: Uint8Array, pattern: Uint8Array, from = 0) {
  outer: for (let i = from; i <= bytes.length - pattern.length; i++) {
    for (let k = 0; k < pattern.length; k++) if (bytes[i + k] !== pattern[k]) continue outer;
    return i;
  }
  return -1;
}

function concat(parts: Uint8Array[]) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** `bytes` with every `pattern` replaced (`limit` times at most), and how many were. */
function replace(bytes: Uint8Array, pattern: Uint8Array, by: Uint8Array, limit = Number.POSITIVE_INFINITY) {
  const parts: Uint8Array[] = [];
  let from = 0;
  let count = 0;
  for (let at = indexOf(bytes, pattern); at >= 0 && count < limit; at = indexOf(bytes, pattern, from)) {
    parts.push(bytes.subarray(from, at), by);
    from = at + pattern.length;
    count++;
  }
  if (count === 0) return { bytes, count };
  parts.push(bytes.subarray(from));
  return { bytes: concat(parts), count };
}

export function startScriptsAfterFirstPaint(body: ReadableStream<Uint8Array>, nonce: string | undefined) {
  const boot = encoder.encode(`<script${nonce ? ` nonce="${nonce}"` : ""}>${BOOT}</script>`);
  // The head so far (null once sent); `</head>` is looked for only where it could now end.
  let head: Uint8Array | null = new Uint8Array(0);
  let carry = new Uint8Array(0);
  let moduleFound = false;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (head) {
          const from = Math.max(0, head.length - (HEAD_END.length - 1));
          head = head.length ? concat([head, chunk]) : chunk;
          const end = indexOf(head, HEAD_END, from);
          if (end < 0) return;
          controller.enqueue(concat([replace(head.subarray(0, end), PRELOAD, INERT_PRELOAD).bytes, boot]));
          chunk = head.subarray(end);
          head = null;
        }
        if (moduleFound) return controller.enqueue(chunk);
        const data = carry.length ? concat([carry, chunk]) : chunk;
        const replaced = replace(data, MODULE, INERT_MODULE, 1);
        if (replaced.count) {
          moduleFound = true;
          carry = new Uint8Array(0);
          return controller.enqueue(replaced.bytes);
        }
        const keep = Math.min(data.length, MODULE.length - 1);
        controller.enqueue(data.subarray(0, data.length - keep));
        carry = data.slice(data.length - keep);
      },
      flush(controller) {
        if (head?.length) controller.enqueue(head);
        if (carry.length) controller.enqueue(carry);
      },
    }),
  );
}
