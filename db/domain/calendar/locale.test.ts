import { describe, expect, it } from "vitest";
import { GREGORIAN, PRESETS, dateInWords, localeOf, parseStoryText, storyDisplay } from "./index";
import { weekdayOf } from "./weekday";

const day = { year: 2031, month: 10, day: 13 };
const timed = { ...day, hour: 9, minute: 0 };

describe("the writer's locale", () => {
  it("reads Accept-Language: the first acceptable tag by weight, else English", () => {
    expect(localeOf("de-DE,de;q=0.9,en;q=0.8")).toBe("de-DE");
    expect(localeOf("en;q=0.5, fr-FR")).toBe("fr-FR");
    expect(localeOf(null)).toBe("en");
    expect(localeOf("")).toBe("en");
    expect(localeOf("*")).toBe("en");
    expect(localeOf("not a tag!!, es;q=0.3")).toBe("es");
    // Extensions are dropped, and a flood of tags is read no further than the first 20.
    expect(localeOf("de-DE-u-nu-arab-ca-buddhist")).toBe("de-DE");
    expect(localeOf(`${"x!,".repeat(5000)}fr-FR`)).toBe("en");
  });

  it("writes Gregorian dates in German, French, Spanish and Japanese at every precision, English as it was", () => {
    const words = (locale: string) =>
      [timed, day, { year: 2031, month: 10 }, { year: 2031 }].map((d) => dateInWords(GREGORIAN, d, { locale }));
    expect(words("de-DE")).toEqual(["13. Oktober 2031 um 09:00", "13. Oktober 2031", "Oktober 2031", "2031"]);
    expect(words("fr")).toEqual(["13 octobre 2031 à 09:00", "13 octobre 2031", "octobre 2031", "2031"]);
    expect(words("es")).toEqual(["13 de octubre de 2031 a las 09:00", "13 de octubre de 2031", "octubre de 2031", "2031"]);
    expect(words("ja")).toEqual(["2031年10月13日 09:00", "2031年10月13日", "2031年10月", "2031年"]);
    expect(weekdayOf(GREGORIAN, day, { locale: "de" })).toBe("Montag");
    // English (any en tag, or none) stays exactly as it was.
    for (const locale of [undefined, "en", "en-US", "en-GB"]) {
      expect(dateInWords(GREGORIAN, timed, { locale })).toBe("13 October 2031, 9:00");
      expect(storyDisplay(GREGORIAN, "2031-10", { locale })).toBe("October 2031");
      expect(weekdayOf(GREGORIAN, day, { locale })).toBe("Monday");
    }
  });

  it("keeps the English arrangement, with the locale's month name, before year 1", () => {
    expect(dateInWords(GREGORIAN, { year: -450, month: 3, day: 15, hour: 9, minute: 0 }, { locale: "de" })).toBe("15 März 451 BC, 09:00");
    expect(dateInWords(GREGORIAN, { year: -450, month: 3 }, { locale: "fr" })).toBe("mars 451 BC");
  });

  it("keeps a custom calendar's own names; only the clock is the locale's", () => {
    const cal = PRESETS.thirteen.calendar;
    expect(storyDisplay(cal, "1203-01-14T21:05", { locale: "de" })).toBe("14 Frostmoon 1203 AR, 21:05");
    expect(storyDisplay(cal, "1203-01-14T09:05", { locale: "de" })).toBe("14 Frostmoon 1203 AR, 09:05");
    expect(storyDisplay(PRESETS.dayN.calendar, "3-01-01T18:00", { locale: "fr" })).toBe("Day 3, dusk");
  });

  it("reads the locale's month names as well as the English ones", () => {
    expect(parseStoryText(GREGORIAN, "13 octobre 2031", "Start", "fr")).toEqual({ ok: true, date: day });
    expect(parseStoryText(GREGORIAN, "13 octobre 2031 à 09:00", "Start", "fr")).toEqual({ ok: true, date: timed });
    expect(parseStoryText(GREGORIAN, "13. Oktober 2031", "Start", "de-DE")).toEqual({ ok: true, date: day });
    expect(parseStoryText(GREGORIAN, "13. Okt. 2031 um 09:00", "Start", "de-DE")).toEqual({ ok: true, date: timed });
    expect(parseStoryText(GREGORIAN, "13 de octubre de 2031 a las 09:00", "Start", "es")).toEqual({ ok: true, date: timed });
    expect(parseStoryText(GREGORIAN, "März 2031", "Start", "de")).toEqual({ ok: true, date: { year: 2031, month: 3 } });
    expect(parseStoryText(GREGORIAN, "13 October 2031", "Start", "fr")).toEqual({ ok: true, date: day });
    // Without the locale a French month is not a month; refusals keep their wording.
    expect(parseStoryText(GREGORIAN, "13 octobre 2031", "Start")).toEqual({
      ok: false,
      error: "Story start must be a date like 13 October 2031, 9:00",
    });
    expect(parseStoryText(GREGORIAN, "13 blorp 2031", "Start", "fr")).toEqual({
      ok: false,
      error: "Story start must be a date like 13 October 2031, 9:00",
    });
  });

  it("reads back what it writes, in many languages, at every precision", () => {
    const dates = [timed, { ...day, hour: 21, minute: 30 }, day, { year: 2031, month: 3 }, { year: 1999 }];
    for (const locale of ["de", "fr", "es", "it", "nl", "pt-BR", "sv", "nb", "ru", "uk", "cs", "ro", "tr", "pl", "ja", "zh-CN"]) {
      for (const date of dates) {
        const words = dateInWords(GREGORIAN, date, { locale });
        if ("month" in date) expect(words, locale).not.toBe(dateInWords(GREGORIAN, date));
        expect(parseStoryText(GREGORIAN, words, "Start", locale), `${locale}: ${words}`).toEqual({ ok: true, date });
      }
    }
  });
});
