import crimsonBold from "@expo-google-fonts/crimson-pro/700Bold/CrimsonPro_700Bold.ttf?url";
import crimsonRegular from "@expo-google-fonts/crimson-pro/400Regular/CrimsonPro_400Regular.ttf?url";
import crimsonItalic from "@expo-google-fonts/crimson-pro/400Regular_Italic/CrimsonPro_400Regular_Italic.ttf?url";
import garamondBold from "@expo-google-fonts/eb-garamond/700Bold/EBGaramond_700Bold.ttf?url";
import garamondRegular from "@expo-google-fonts/eb-garamond/400Regular/EBGaramond_400Regular.ttf?url";
import garamondItalic from "@expo-google-fonts/eb-garamond/400Regular_Italic/EBGaramond_400Regular_Italic.ttf?url";
import baskervilleBold from "@expo-google-fonts/libre-baskerville/700Bold/LibreBaskerville_700Bold.ttf?url";
import baskervilleRegular from "@expo-google-fonts/libre-baskerville/400Regular/LibreBaskerville_400Regular.ttf?url";
import baskervilleItalic from "@expo-google-fonts/libre-baskerville/400Regular_Italic/LibreBaskerville_400Regular_Italic.ttf?url";
import naskhArabic from "@expo-google-fonts/noto-naskh-arabic/400Regular/NotoNaskhArabic_400Regular.ttf?url";
import notoSerifSc from "@expo-google-fonts/noto-serif-sc/400Regular/NotoSerifSC_400Regular.ttf?url";
import serifHebrew from "@expo-google-fonts/noto-serif-hebrew/400Regular/NotoSerifHebrew_400Regular.ttf?url";
import rendererUrl from "@myriaddreamin/typst-ts-renderer/pkg/typst_ts_renderer_bg.wasm?url";
import wasmUrl from "virtual:typst-compiler-wasm";
import { type BookFont, type ScriptFont, scriptsOf } from "../../../../db/domain/print-options";
import type { PreviewPage, PreviewReply, PreviewRequest } from "./preview.worker";

// The print dialog's typesetting, loaded on first use: the engine (gzipped, scripts/vite-typst-wasm.ts) and the
// chosen face's files are assets of the build, served by the app itself (font-files.ts lists the same for the tests).
const fontUrls: Record<BookFont, string[]> = {
  "eb-garamond": [garamondRegular, garamondItalic, garamondBold],
  "crimson-pro": [crimsonRegular, crimsonItalic, crimsonBold],
  "libre-baskerville": [baskervilleRegular, baskervilleItalic, baskervilleBold],
};

// Fetched only for a book whose text uses the script (the Chinese and Japanese face is 15 MB).
const scriptFontUrls: Record<ScriptFont, string> = { arabic: naskhArabic, hebrew: serifHebrew, cjk: notoSerifSc };

async function bytesOf(url: string) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Could not load ${url} (${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}

// Each file is fetched once per page: the preview and the download share them (copies go to the workers).
const loaded = new Map<string, Promise<Uint8Array>>();
function cached(url: string) {
  let bytes = loaded.get(url);
  if (!bytes) {
    bytes = bytesOf(url);
    bytes.catch(() => loaded.delete(url));
    loaded.set(url, bytes);
  }
  return bytes;
}

/** The engine's bytes: the build's gzipped file inflated here, unless the server already sent it inflated. */
async function engineBytes() {
  const bytes = await bytesOf(wasmUrl);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
}

// Compiled once per page; a compiled module goes to a worker without copying its 28 MB.
let engineModule: Promise<WebAssembly.Module> | undefined;
function engine() {
  engineModule ??= engineBytes().then((bytes) => WebAssembly.compile(bytes as BufferSource));
  engineModule.catch(() => {
    engineModule = undefined;
  });
  return engineModule;
}

/** The files of the chosen face and of the scripts the source uses. */
const fontsFor = (source: string, font: BookFont) =>
  Promise.all([...fontUrls[font], ...scriptsOf(source).map((script) => scriptFontUrls[script])].map(cached));

/** The PDF, typeset in a worker (typeset.worker.ts) from the engine and font bytes fetched here. */
export async function typesetInBrowser(source: string, font: BookFont) {
  const [wasm, fonts] = await Promise.all([engine(), fontsFor(source, font)]);
  const worker = new Worker(new URL("./typeset.worker.ts", import.meta.url), { type: "module" });
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      worker.onmessage = ({ data }: MessageEvent<{ pdf?: Uint8Array; error?: string }>) =>
        data.pdf ? resolve(data.pdf) : reject(new Error(data.error ?? "The typesetter stopped"));
      worker.onerror = (event) => reject(new Error(event.message || "The typesetter could not start"));
      worker.postMessage({ source, wasm, fonts });
    });
  } finally {
    worker.terminate();
  }
}

export type SpreadImage = { left: (PreviewPage & { svg: string }) | null; right: PreviewPage & { svg: string } };

/** One page of the renderer's SVG (all pages stacked): the others dropped, the view on that page alone. */
function pageOf(doc: Document, page: PreviewPage) {
  const svg = doc.documentElement.cloneNode(true) as SVGSVGElement;
  const pages = [...svg.querySelectorAll("g.typst-page")];
  pages.forEach((g, i) => {
    if (i !== page.number - 1) g.remove();
  });
  svg.setAttribute("viewBox", `0 ${page.offset} ${page.width} ${page.height}`);
  svg.setAttribute("width", String(page.width));
  svg.setAttribute("height", String(page.height));
  svg.removeAttribute("style");
  return { ...page, svg: new XMLSerializer().serializeToString(svg) };
}

/**
 * The spread preview's worker (preview.worker.ts), started when the print dialog opens and stopped when it
 * closes: `render` gives the two facing pages as SVG, one render after another (the dialog drops a result that
 * an option's change has overtaken).
 */
export function startPreview() {
  const worker = new Worker(new URL("./preview.worker.ts", import.meta.url), { type: "module" });
  let started: Promise<void> | undefined;
  let next = 0;
  const waiting = new Map<number, { resolve: (reply: PreviewReply) => void; reject: (error: Error) => void }>();
  worker.onmessage = ({ data }: MessageEvent<PreviewReply>) => {
    waiting.get(data.id)?.resolve(data);
    waiting.delete(data.id);
  };
  worker.onerror = (event) => {
    for (const { reject } of waiting.values()) reject(new Error(event.message || "The preview could not start"));
    waiting.clear();
  };
  return {
    async render(source: string, font: BookFont): Promise<SpreadImage> {
      started ??= Promise.all([engine(), cached(rendererUrl).then((bytes) => WebAssembly.compile(bytes as BufferSource))]).then(
        ([engineModule, renderer]) => worker.postMessage({ engine: engineModule, renderer }),
      );
      started.catch(() => {
        started = undefined;
      });
      const [fonts] = await Promise.all([fontsFor(source, font), started]);
      const id = ++next;
      const reply = await new Promise<PreviewReply>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        const fontKey = [font, ...scriptsOf(source)].join(",");
        worker.postMessage({ id, source, fontKey, fonts } satisfies PreviewRequest);
      });
      if ("error" in reply) throw new Error(reply.error);
      // The renderer's SVG is meant for a page's HTML: its script (text selection, unwanted in a picture) is not
      // well-formed XML. The author's text in it is escaped, so no `<script` of theirs can be taken for it.
      const doc = new DOMParser().parseFromString(reply.svg.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ""), "image/svg+xml");
      if (doc.querySelector("parsererror")) throw new Error("The preview's drawing could not be read");
      return { left: reply.left ? pageOf(doc, reply.left) : null, right: pageOf(doc, reply.right) };
    },
    stop() {
      worker.terminate();
      waiting.clear();
    },
  };
}
