import init, { type TypstCompiler, TypstCompilerBuilder } from "@myriaddreamin/typst-ts-web-compiler";

// The typesetter: Typst compiled to WebAssembly (docs/decisions.md, 'A book ready to print'). It runs in the
// browser (28 MB of WebAssembly: too large for the Worker) and, for the tests and the benchmark, in Node. The
// caller hands over the engine's bytes and the font files, so nothing is fetched from anywhere else.

export type TypesetInput = { wasm: BufferSource | WebAssembly.Module | Response | URL | string; fonts: Uint8Array[] };

let ready: Promise<unknown> | undefined;

/** A compiler that knows only the given fonts: the book is one source, with no files to read and no packages to fetch. */
export async function makeCompiler({ wasm, fonts }: TypesetInput): Promise<TypstCompiler> {
  ready ??= init({ module_or_path: wasm });
  await ready;
  const builder = new TypstCompilerBuilder();
  builder.set_dummy_access_model();
  for (const font of fonts) await builder.add_raw_font(font);
  return builder.build();
}

/** The book's source compiled to `format` ("pdf" or typst.ts's "vector"); a Typst error is thrown with its message. */
export function compileBook(compiler: TypstCompiler, source: string, format: "pdf" | "vector"): Uint8Array {
  compiler.add_source("/book.typ", source);
  const { result, diagnostics } = compiler.compile("/book.typ", null, format, 1) as {
    result?: Uint8Array;
    diagnostics?: { message: string }[];
  };
  if (!result) throw new Error(`The typesetter refused the book: ${diagnostics?.map((d) => d.message).join("; ") ?? "no reason given"}`);
  return result;
}

/** The book's Typst source as PDF bytes; a Typst error (never expected from our own source) is thrown with its message. */
export async function typesetPdf(source: string, input: TypesetInput): Promise<Uint8Array> {
  const compiler = await makeCompiler(input);
  try {
    return compileBook(compiler, source, "pdf");
  } finally {
    compiler.free();
  }
}
