import initRenderer, { CreateSessionOptions, TypstRendererBuilder, type TypstRenderer } from "@myriaddreamin/typst-ts-renderer";
import type { TypstCompiler } from "@myriaddreamin/typst-ts-web-compiler";
import { SPREAD_FACTS, type SpreadFacts, chooseSpread, spreadSource } from "./spread";
import { compileBook, makeCompiler } from "./typeset";

// The print dialog's spread preview, kept alive while the dialog is open: the book's start is compiled to
// typst.ts's vector format (the same engine and source as the PDF) and typst.ts's renderer draws it as SVG. The
// compiler stays warm between options, so a change shows in well under a second; it is rebuilt only when the
// fonts change. A worker for the same reason as typeset.worker.ts: the glue builds functions with `new Function`.

export type PreviewRequest = { id: number; source: string; fontKey: string; fonts: Uint8Array[] };
export type PreviewPage = { number: number; offset: number; width: number; height: number };
export type PreviewReply = { id: number; svg: string; left: PreviewPage | null; right: PreviewPage } | { id: number; error: string };
type Init = { engine: WebAssembly.Module; renderer: WebAssembly.Module };

let engine: WebAssembly.Module | undefined;
let renderer: Promise<TypstRenderer> | undefined;
let compiler: { key: string; ready: Promise<TypstCompiler> } | undefined;

async function preview({ id, source, fontKey, fonts }: PreviewRequest): Promise<PreviewReply> {
  if (!engine || !renderer) throw new Error("The preview has not started");
  if (compiler?.key !== fontKey) {
    const previous = compiler?.ready;
    compiler = { key: fontKey, ready: makeCompiler({ wasm: engine, fonts }) };
    previous?.then((c) => c.free()).catch(() => undefined);
  }
  const typst = await compiler.ready;
  const vector = compileBook(typst, spreadSource(source), "vector");
  const [facts] = JSON.parse(typst.query("/book.typ", null, SPREAD_FACTS, "value")) as SpreadFacts[];
  const draw = await renderer;
  const options = new CreateSessionOptions();
  options.format = "vector";
  options.artifact_content = vector;
  const session = draw.create_session(options);
  try {
    const pages = session.pages_info;
    const spread = chooseSpread(facts, pages.page_count);
    // The SVG stacks the pages top to bottom with no gap: a page starts where the ones before it end.
    const page = (number: number): PreviewPage => {
      let offset = 0;
      for (let i = 0; i < number - 1; i++) offset += pages.page(i).height_pt;
      const info = pages.page(number - 1);
      return { number, offset, width: info.width_pt, height: info.height_pt };
    };
    return { id, svg: draw.svg_data(session), left: spread.left ? page(spread.left) : null, right: page(spread.right) };
  } finally {
    session.free();
  }
}

self.onmessage = async ({ data }: MessageEvent<Init | PreviewRequest>) => {
  if ("engine" in data) {
    engine = data.engine;
    renderer = initRenderer({ module_or_path: data.renderer }).then(() => new TypstRendererBuilder().build());
    return;
  }
  try {
    self.postMessage(await preview(data));
  } catch (error) {
    self.postMessage({ id: data.id, error: error instanceof Error ? error.message : String(error) } satisfies PreviewReply);
  }
};
