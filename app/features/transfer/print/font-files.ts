import type { BookFont, ScriptFont } from "../../../../db/domain/print-options";

// Each book face's files (regular, italic, bold) as paths inside its npm package. The fonts are TrueType from the
// @expo-google-fonts packages (SIL Open Font License): Typst reads TrueType and OpenType, not the WOFF2 of
// @fontsource. The print dialog loads them as assets of the build (fonts.ts), the tests from node_modules.
export const fontFiles: Record<BookFont, string[]> = {
  "eb-garamond": [
    "@expo-google-fonts/eb-garamond/400Regular/EBGaramond_400Regular.ttf",
    "@expo-google-fonts/eb-garamond/400Regular_Italic/EBGaramond_400Regular_Italic.ttf",
    "@expo-google-fonts/eb-garamond/700Bold/EBGaramond_700Bold.ttf",
  ],
  "crimson-pro": [
    "@expo-google-fonts/crimson-pro/400Regular/CrimsonPro_400Regular.ttf",
    "@expo-google-fonts/crimson-pro/400Regular_Italic/CrimsonPro_400Regular_Italic.ttf",
    "@expo-google-fonts/crimson-pro/700Bold/CrimsonPro_700Bold.ttf",
  ],
  "libre-baskerville": [
    "@expo-google-fonts/libre-baskerville/400Regular/LibreBaskerville_400Regular.ttf",
    "@expo-google-fonts/libre-baskerville/400Regular_Italic/LibreBaskerville_400Regular_Italic.ttf",
    "@expo-google-fonts/libre-baskerville/700Bold/LibreBaskerville_700Bold.ttf",
  ],
};

/** The faces of the scripts the book faces lack (Noto, SIL OFL), one regular file each: added only for a text that uses them. */
export const scriptFontFiles: Record<ScriptFont, string> = {
  arabic: "@expo-google-fonts/noto-naskh-arabic/400Regular/NotoNaskhArabic_400Regular.ttf",
  hebrew: "@expo-google-fonts/noto-serif-hebrew/400Regular/NotoSerifHebrew_400Regular.ttf",
  cjk: "@expo-google-fonts/noto-serif-sc/400Regular/NotoSerifSC_400Regular.ttf",
};
