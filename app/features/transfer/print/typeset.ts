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
  // Our own stand-ins for file and package access (the book is one source with no files or packages): the
  // library's dummies are made with `new Function`, which the app's Content-Security-Policy forbids.
  await builder.set_access_model(
    null,
    () => 0,
    () => false,
    (path: string) => path,
    (path: string) => {
      throw new Error(`The book reads no files (${path})`);
    },
  );
  await builder.set_package_registry(null, (spec: unknown) => {
    throw new Error(`The book uses no packages (${JSON.stringify(spec)})`);
  });
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
