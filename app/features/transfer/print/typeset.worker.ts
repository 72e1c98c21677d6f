import { typesetPdf } from "./typeset";

// Typesetting off the page's thread, in a dedicated worker: a long book takes seconds, and Typst's WebAssembly
// glue builds small functions with `new Function`, which the app's own Content-Security-Policy (no eval) forbids
// on the page. The worker is a same-origin file of the build, run under its own response's policy.

type Request = { source: string; wasm: WebAssembly.Module; fonts: Uint8Array[] };

self.onmessage = async ({ data }: MessageEvent<Request>) => {
  try {
    const pdf = await typesetPdf(data.source, { wasm: data.wasm, fonts: data.fonts });
    self.postMessage({ pdf }, { transfer: [pdf.buffer] });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
