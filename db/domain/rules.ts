// The product's rules, texts and limits that both the screens and the services use. No imports: a screen
// can take these without pulling zod (db/domain/validation.ts, which re-exports them) into its bundle.

// the product's wording, shared by the React forms, the API and the room.
export const messages = {
  email: "Please enter a valid email address",
  password: "Password must be at least 6 characters",
  name: "Name must be at least 2 characters",
  passwordsMatch: "Passwords do not match",
  manualToken: "Please enter a valid reset token from your email",
  missingToken: "Missing reset token. Please request a new password reset link.",
  timelineTitle: "Please enter a timeline title",
  selectTimeline: "Please select a timeline first",
  eventFields: "Please fill in both title and content",
  ideasPrompt: "Please enter a writing prompt",
  enhanceText: "Please enter text to enhance",
  characterDescription: "Please enter a character description",
  apiKey: "Please enter an API key",
  stripeKeys: "Please enter both Stripe keys",
  unexpected: "An unexpected error occurred",
  invalidResetToken: "This password reset token is invalid or has expired.",
  forgotPassword: "If an account exists with the email you provided, you'll receive an email with a reset token.",
} as const;

// Bounds (docs/decisions.md).
export const limits = {
  name: 100,
  email: 254,
  passwordMin: 6,
  passwordMax: 128,
  timelineTitle: 200,
  timelineDescription: 2000,
  eventTitle: 200,
  eventContent: 50_000,
  /** A scene's synopsis and notes (DESIGN §12). */
  eventNotes: 10_000,
  byline: 200,
  aiInput: 4000,
  body: 1_000_000,
  resetTokenMin: 10,
} as const;

// what the free plan allows (Premium is unlimited), for the services and the screens.
export const FREE_TIMELINE_LIMIT = 3;
export const FREE_AI_USES = 3;
/** a free owner's timelines keep event history this many days (Premium: all). */
export const FREE_VERSION_DAYS = 30;
/** A version list entry shows this much of the content (whitespace collapsed). */
export const VERSION_PREVIEW_CHARS = 140;
/** A writer's name for a version, at most this long. */
export const VERSION_NAME_MAX = 100;
/** Live co-writing records at most one version per author per this window. */
export const LIVE_VERSION_WINDOW_MS = 5 * 60_000;

// The codex.
export const entityKinds = ["character", "place", "thing"] as const;
export type EntityKind = (typeof entityKinds)[number];

export const entityLimits = { name: 100, aliases: 20, alias: 100, description: 10_000 } as const;

/** A new entity's color when none is given, by kind. */
export const defaultEntityColor: Record<EntityKind, string> = {
  character: "#6366f1",
  place: "#10b981",
  thing: "#f59e0b",
};

/** The colours new codex entries of each kind take in turn (the kind's default first), so no two look alike. */
export const entityPalette: Record<EntityKind, readonly string[]> = {
  character: ["#6366f1", "#ec4899", "#0ea5e9", "#8b5cf6", "#e11d48", "#0891b2", "#a21caf", "#2563eb", "#db2777", "#7c3aed"],
  place: ["#10b981", "#65a30d", "#0d9488", "#15803d", "#84cc16", "#047857", "#4d7c0f", "#14b8a6"],
  thing: ["#f59e0b", "#ea580c", "#ca8a04", "#b45309", "#f97316", "#a16207", "#c2410c", "#d97706"],
};

/** A new entry's colour: the first of its kind's palette no entry of the codex has yet (then round again). */
export function nextEntityColor(kind: EntityKind, used: Iterable<string>) {
  const palette = entityPalette[kind];
  const taken = [...used].map((c) => c.toLowerCase());
  return palette.find((c) => !taken.includes(c)) ?? palette[taken.filter((c) => palette.includes(c)).length % palette.length];
}

// Sessions: 30 days from sign-in at most, however recently used; the room re-checks its
// sockets' sessions at least this often, so a revocation it missed still ends them.
export const SESSION_ABSOLUTE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** Co-writing: how often an event's shared doc re-checks its writers' sessions and access. */
export const DOC_ACCESS_RECHECK_MS = 30_000;
/** Autosaves of live co-writing fold into the author's newest version while it is younger than this. */
export const LIVE_VERSION_COALESCE_MS = 5 * 60_000;
export const ROOM_SESSION_RECHECK_MS = 60 * 60 * 1000;

// Attachments on events: per-file size, the accepted types and the storage per timeline owner.
export const MB = 1024 * 1024;
export const ATTACHMENT_MAX_BYTES = 10 * MB;
export const ATTACHMENT_QUOTA_BYTES = { free: 25 * MB, premium: 5 * 1024 * MB } as const;
export const attachmentMessages = {
  missing: "Choose a file to upload",
  tooLarge: "File is too large (10 MB max)",
  unsupported: "This file type is not supported",
  notFound: "Attachment not found",
  quota: (tier: "free" | "premium") =>
    tier === "premium" ? "Storage limit reached (5 GB on the Premium plan)" : "Storage limit reached (25 MB on the Free plan)",
} as const;

/** Accepted files by extension: the type they are stored and served as. No SVG: it can carry script. */
export const attachmentTypes: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  markdown: "text/markdown",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

/** What the file picker offers (the server checks again). */
export const ATTACHMENT_ACCEPT = `${Object.keys(attachmentTypes)
  .map((ext) => `.${ext}`)
  .join(",")},${[...new Set(Object.values(attachmentTypes))].join(",")}`;

export const isImageType = (contentType: string) => contentType.startsWith("image/");

/** "1.2 MB", "340 KB", "12 bytes". */
export function formatBytes(size: number) {
  if (size >= MB) return `${(size / MB).toFixed(1).replace(/\.0$/, "")} MB`;
  if (size >= 1024) return `${Math.round(size / 1024)} KB`;
  return `${size} ${size === 1 ? "byte" : "bytes"}`;
}

// What the assistant's answers become: a suggested event, a codex character, a rewrite tone.

/**
 * Applying a plot suggestion: the text is split into non-empty lines; the first line,
 * without leading # signs, bold markers and quotes, is the title (47 characters plus an ellipsis
 * when longer than 50); the other lines are the content, or 'No content provided'. Empty → null.
 */
export const SUGGESTED_TITLE_MAX = 50;

export function parseSuggestion(text: string): { title: string; content: string } | null {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return null;
  const title = lines[0]
    .replace(/^#+\s*/, "")
    .replace(/\*\*|__/g, "")
    .replace(/["“”]/g, "")
    .replace(/^['‘’]+|['‘’]+$/g, "")
    .trim();
  const content = lines.slice(1).join("\n") || "No content provided";
  const shortTitle = title.length > SUGGESTED_TITLE_MAX ? `${title.slice(0, SUGGESTED_TITLE_MAX - 3)}...` : title;
  return { title: shortTitle || "Untitled suggestion", content };
}

/**
 * The character's name in a Writer's Unblock profile: a 'Name: …' line when there is one, else the first line
 * (headings and bold marks stripped). Empty when nothing usable is found.
 */
export function characterNameFrom(profile: string): string {
  const clean = (line: string) =>
    line
      .replace(/^[#>*\-\s]+/, "")
      .replace(/\*\*|__|`/g, "")
      .trim();
  const lines = profile.split(/\r?\n/).map(clean).filter(Boolean);
  const labelled = lines.map((line) => /^name\s*[:\-–—]\s*(.+)$/i.exec(line)?.[1]).find(Boolean);
  const name = (labelled ?? lines[0] ?? "")
    .replace(/[,;(].*$/, "")
    .trim()
    .replace(/^["“']+|["”']+$/g, "")
    .trim();
  return name.slice(0, entityLimits.name);
}

/** Rewrite tone presets for the event editor's Rewrite on a selection. */
export const TRANSFORM_TONES = ["Darker", "Lighter", "More formal", "More casual", "Tenser"] as const;

// The mind map. Basic (every plan): events and codex entries as nodes, positions that persist.
// Advanced (Premium, decided by the acting writer's plan): idea and group nodes, labeled edges, export.
export const mapLimits = { text: 500, label: 60, positions: 2000, coordinate: 1_000_000, size: 10_000 } as const;
export const MAP_ADVANCED_IS_PREMIUM = "Upgrade to Premium for advanced mind mapping";
export const mapNodeKinds = ["event", "entity", "idea", "group"] as const;
export type MapNodeKind = (typeof mapNodeKinds)[number];
/** A node's id on the map: "event-12", "entity-3", "idea-7", "group-8". */
export const MAP_NODE_KEY = /^(event|entity|idea|group)-([1-9]\d{0,11})$/;
/** The row id in a map node's or edge's id ("idea-7" → "7", "edge-4" → "4"). */
export const mapRowId = (key: string) => key.slice(key.indexOf("-") + 1);
/** Suggested labels for a custom edge. */
export const mapEdgeLabels = ["causes", "foreshadows", "contrasts", "leads to"] as const;
