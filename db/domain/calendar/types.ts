// A timeline's calendar: how story dates are counted and written. The stored machine form of a date stays
// `[-]Y[-MM[-DD[THH:mm]]]`, read in the calendar: Y the (astronomical) year, MM the month's index, DD the day.
// A relative calendar ("Day N" or "Week N") reads Y as the day (or week) number; see arithmetic.ts (its "months"),
// parse.ts and words.ts.

export type Era = { name: string; abbreviation: string; direction: "forward" | "backward"; startYear: number };

/** A season of the year: it runs from its first month until the next season's. */
export type Season = { name: string; startMonth: number };

export type Calendar = {
  kind: "gregorian" | "custom" | "relative";
  months: Array<{ name: string; days: number }>;
  weekdays: string[];
  eras: Era[];
  leap: { every: number; month: number } | null;
  hoursPerDay: number;
  relativeUnit: "day" | "week" | null;
  /** Seasons a writer may date by ("spring 1203"); none in a relative calendar. */
  seasons: Season[];
};

/** A date in a calendar; missing parts mean the date is only that precise ("1203", "Frostmoon 1203"). */
export type CalDate = { year: number; month?: number; day?: number; hour?: number; minute?: number };

const GREGORIAN_MONTHS = [
  ["January", 31],
  ["February", 28],
  ["March", 31],
  ["April", 30],
  ["May", 31],
  ["June", 30],
  ["July", 31],
  ["August", 31],
  ["September", 30],
  ["October", 31],
  ["November", 30],
  ["December", 31],
] as const;

/** Spring to winter as the northern hemisphere's meteorologists count them. */
export const GREGORIAN_SEASONS: Season[] = [
  { name: "Spring", startMonth: 3 },
  { name: "Summer", startMonth: 6 },
  { name: "Autumn", startMonth: 9 },
  { name: "Winter", startMonth: 12 },
];

export const GREGORIAN: Calendar = {
  kind: "gregorian",
  months: GREGORIAN_MONTHS.map(([name, days]) => ({ name, days })),
  weekdays: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  // Years from 1 have no era word; year 0 is 1 BC, as historians count.
  eras: [{ name: "Before Christ", abbreviation: "BC", direction: "backward", startYear: 1 }],
  leap: { every: 4, month: 2 },
  hoursPerDay: 24,
  relativeUnit: null,
  seasons: GREGORIAN_SEASONS,
};

const RECKONING: Era[] = [
  { name: "Before Reckoning", abbreviation: "BR", direction: "backward", startYear: 1 },
  { name: "After Reckoning", abbreviation: "AR", direction: "forward", startYear: 1 },
];

const THIRTEEN_MOONS = [
  "Frostmoon",
  "Snowmoon",
  "Thawmoon",
  "Seedmoon",
  "Bloommoon",
  "Greenmoon",
  "Sunmoon",
  "Hazemoon",
  "Harvestmoon",
  "Leafmoon",
  "Mistmoon",
  "Ashmoon",
  "Darkmoon",
];

export const PRESETS = {
  gregorian: { label: "Gregorian", calendar: GREGORIAN },
  thirteen: {
    label: "13 × 28 days",
    calendar: {
      kind: "custom",
      months: THIRTEEN_MOONS.map((name) => ({ name, days: 28 })),
      weekdays: ["Moonday", "Tideday", "Windday", "Thunderday", "Fireday", "Starday", "Sunday"],
      eras: RECKONING,
      leap: null,
      hoursPerDay: 24,
      relativeUnit: null,
      // Winter runs from Ashmoon into the next year's Snowmoon.
      seasons: [
        { name: "Spring", startMonth: 3 },
        { name: "Summer", startMonth: 6 },
        { name: "Autumn", startMonth: 9 },
        { name: "Winter", startMonth: 12 },
      ],
    },
  },
  thirtyPlusFive: {
    label: "12 × 30 + 5",
    calendar: {
      kind: "custom",
      months: [...Array.from({ length: 12 }, (_, i) => ({ name: `Month ${i + 1}`, days: 30 })), { name: "Festival", days: 5 }],
      weekdays: [],
      eras: RECKONING,
      leap: { every: 4, month: 13 },
      hoursPerDay: 24,
      relativeUnit: null,
      seasons: [],
    },
  },
  dayN: {
    label: "Day N",
    calendar: { kind: "relative", months: [], weekdays: [], eras: [], leap: null, hoursPerDay: 24, relativeUnit: "day", seasons: [] },
  },
} satisfies Record<string, { label: string; calendar: Calendar }>;
