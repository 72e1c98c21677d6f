/** The URL of Typst's WebAssembly, gzipped (scripts/vite-typst-wasm.ts). */
declare module "virtual:typst-compiler-wasm" {
  const url: string;
  export default url;
}
