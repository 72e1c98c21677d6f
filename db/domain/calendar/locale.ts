// The writer's locale for story dates: Gregorian month and weekday names, the order of day, month and year, and
// the clock come from Intl (built into every runtime, so no library). English keeps the words it always had.

/** The locale a request asks for: the first acceptable tag (of the first 20) of Accept-Language that Intl knows; else English. */
export function localeOf(acceptLanguage: string | null | undefined): string {
  const tags = (acceptLanguage ?? "")
    .split(",", 20)
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((t) => t.tag && t.tag !== "*" && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of tags) {
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag);
      // The language, script and region only: an extension ('-u-nu-arab', '-u-ca-…') is the sender's to vary,
      // and would only split the list cache and the ETag.
      if (supported) return new Intl.Locale(supported).baseName;
    } catch {
      // Not a well-formed tag: try the next one.
    }
  }
  return "en";
}

/** English (any en tag, or none) writes dates as the calendar code always has. */
export const isEnglish = (locale: string | null | undefined) => !locale || /^en(?:-|$)/i.test(locale);

const formats = new Map<string, Intl.DateTimeFormat>();
/** One formatter per locale and shape: a list of a thousand dates builds it once. */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    if (formats.size > 200) formats.clear();
    format = new Intl.DateTimeFormat(locale, { timeZone: "UTC", calendar: "gregory", ...options });
    formats.set(key, format);
  }
  return format;
}

/** A UTC instant with these Gregorian parts, or null where Intl's Gregorian does not hold them (years 1..9999). */
export function utcDate(year: number, month = 1, day = 1, hour = 0, minute = 0) {
  if (year < 1 || year > 9999) return null;
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, 0, 0);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? d : null;
}

/** A time of day as the locale writes it (its own 12- or 24-hour clock). */
export function localTime(locale: string, hour: number, minute: number) {
  if (hour > 23) return `${hour}:${String(minute).padStart(2, "0")}`;
  return dateFormat(locale, { hour: "2-digit", minute: "2-digit" }).format(utcDate(2000, 1, 1, hour, minute) ?? 0);
}

/** The month's name in the locale as a date writes it ('octobre', 'Oktober'). */
export function localMonth(locale: string, month: number) {
  const parts = dateFormat(locale, { day: "numeric", month: "long" }).formatToParts(utcDate(2000, month, 1) ?? 0);
  return parts.find((p) => p.type === "month")?.value ?? String(month);
}

/** Every way the locale names a month (as in a date, standing alone, short), lower case, for reading typed dates. */
export function localMonthNames(locale: string): Array<{ name: string; index: number }> {
  const out: Array<{ name: string; index: number }> = [];
  for (let index = 1; index <= 12; index++) {
    const at = utcDate(2000, index, 1) ?? 0;
    const names = [
      localMonth(locale, index),
      dateFormat(locale, { month: "long" }).format(at),
      dateFormat(locale, { month: "short" }).format(at),
      dateFormat(locale, { day: "numeric", month: "short" })
        .formatToParts(at)
        .find((p) => p.type === "month")?.value ?? "",
    ];
    for (const name of new Set(names.map((n) => n.toLowerCase()).filter((n) => n && !/\d/.test(n)))) out.push({ name, index });
  }
  return out;
}
