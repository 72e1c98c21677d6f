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
import wasmUrl from "virtual:typst-compiler-wasm";
import { type BookFont, type ScriptFont, scriptsOf } from "../../../../db/domain/print-options";

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

/** The engine's bytes: the build's gzipped file inflated here, unless the server already sent it inflated. */
async function engine() {
  const bytes = await bytesOf(wasmUrl);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
}

/** The PDF, typeset in a worker (typeset.worker.ts) from the engine and font bytes fetched here. */
export async function typesetInBrowser(source: string, font: BookFont) {
  const urls = [...fontUrls[font], ...scriptsOf(source).map((script) => scriptFontUrls[script])];
  const [wasm, fonts] = await Promise.all([engine(), Promise.all(urls.map(bytesOf))]);
  const worker = new Worker(new URL("./typeset.worker.ts", import.meta.url), { type: "module" });
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      worker.onmessage = ({ data }: MessageEvent<{ pdf?: Uint8Array; error?: string }>) =>
        data.pdf ? resolve(data.pdf) : reject(new Error(data.error ?? "The typesetter stopped"));
      worker.onerror = (event) => reject(new Error(event.message || "The typesetter could not start"));
      worker.postMessage({ source, wasm, fonts }, [wasm.buffer, ...fonts.map((f) => f.buffer)]);
    });
  } finally {
    worker.terminate();
  }
}
