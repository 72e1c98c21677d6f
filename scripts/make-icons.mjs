// Draws the installable app's icons (public/icon-192.png, public/icon-512.png) from public/favicon.svg with sharp.
// Run once after the logo changes: `node scripts/make-icons.mjs`; the PNGs are committed.
import sharp from "sharp";

for (const size of [192, 512]) {
  await sharp("public/favicon.svg", { density: Math.ceil((72 * size) / 32) })
    .resize(size, size)
    .png()
    .toFile(`public/icon-${size}.png`);
}
