import init, { TypstCompilerBuilder } from "@myriaddreamin/typst-ts-web-compiler";

// The typesetter: Typst compiled to WebAssembly (docs/decisions.md, 'A book ready to print'). It runs in the
// browser (28 MB of WebAssembly: too large for the Worker) and, for the tests and the benchmark, in Node. The
// caller hands over the engine's bytes and the font files, so nothing is fetched from anywhere else.

export type TypesetInput = { wasm: BufferSource | WebAssembly.Module | Response | URL | string; fonts: Uint8Array[] };

let ready: Promise<unknown> | undefined;

/** The book's Typst source as PDF bytes; a Typst error (never expected from our own source) is thrown with its message. */
export async function typesetPdf(source: string, { wasm, fonts }: TypesetInput): Promise<Uint8Array> {
  ready ??= init({ module_or_path: wasm });
  await ready;
  const builder = new TypstCompilerBuilder();
  // The book is one source: no files to read, no packages to fetch.
  builder.set_dummy_access_model();
  for (const font of fonts) await builder.add_raw_font(font);
  const compiler = await builder.build();
  try {
    compiler.add_source("/book.typ", source);
    const { result, diagnostics } = compiler.compile("/book.typ", null, "pdf", 1) as {
      result?: Uint8Array;
      diagnostics?: { message: string }[];
    };
    if (!result) throw new Error(`The typesetter refused the book: ${diagnostics?.map((d) => d.message).join("; ") ?? "no reason given"}`);
    return result;
  } finally {
    compiler.free();
  }
}
