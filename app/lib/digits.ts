/**
 * A whole number as en-US writes it (12,345), without Intl: the first `toLocaleString` of a page sets up ICU's number
 * formatting, 50 to 100 ms of main thread on a phone (a 4× slower CPU), and the timeline page's word counts were that
 * first call, inside hydration's long task. Anything else (a fraction, NaN, a huge number) is left to
 * `toLocaleString("en-US")`, which writes the same for whole numbers.
 */
export function digits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  return sign + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
