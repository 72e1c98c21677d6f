// The built-in beat sheets: each beat's title, what it is for, and where it falls in the story (0: the first
// page, 1: the last). A beat that spans pages is placed at the middle of its span.

export type Beat = { title: string; description: string; at: number };
export type TemplateView = { id: string; name: string; description: string; builtIn: boolean; beats: Beat[] };

const beat = (title: string, at: number, description: string): Beat => ({ title, description, at });

export const builtInTemplates: TemplateView[] = [
  {
    id: "three-act",
    name: "Three-Act",
    description: "The classic setup, confrontation and resolution, turned by two plot points.",
    builtIn: true,
    beats: [
      beat("Setup", 0, "The hero's ordinary life, the world and what is missing."),
      beat("Inciting Incident", 0.12, "Something happens that upsets the hero's life."),
      beat("First Plot Point", 0.25, "The hero commits to the problem: the story's second act begins."),
      beat("Midpoint", 0.5, "A reversal or revelation raises the stakes."),
      beat("Second Plot Point", 0.75, "A final piece of the puzzle or a crushing setback sends the hero to the end."),
      beat("Climax", 0.9, "The hero faces the central conflict head on."),
      beat("Resolution", 1, "The new normal after the conflict is resolved."),
    ],
  },
  {
    id: "save-the-cat",
    name: "Save the Cat",
    description: "Blake Snyder's fifteen beats, placed by the page percentages of the beat sheet.",
    builtIn: true,
    beats: [
      beat("Opening Image", 0, "A snapshot of the hero's world and flaw before the story changes it."),
      beat("Theme Stated", 0.05, "Someone states the lesson the hero will have to learn."),
      beat("Set-Up", 0.06, "The hero's life, the people in it and what needs fixing."),
      beat("Catalyst", 0.1, "The life-changing event that knocks the hero out of the status quo."),
      beat("Debate", 0.15, "The hero hesitates: should they go, can they?"),
      beat("Break into Two", 0.2, "The hero chooses to act and enters an upside-down world."),
      beat("B Story", 0.22, "A new relationship that will carry the theme."),
      beat("Fun and Games", 0.35, "The promise of the premise: the hero explores the new world."),
      beat("Midpoint", 0.5, "A false victory or false defeat; the stakes are raised."),
      beat("Bad Guys Close In", 0.62, "Outside pressure and inner doubts tighten."),
      beat("All Is Lost", 0.75, "The lowest point: something or someone is lost."),
      beat("Dark Night of the Soul", 0.78, "The hero wallows before finding the truth they need."),
      beat("Break into Three", 0.8, "The A and B stories meet: the hero knows how to win."),
      beat("Finale", 0.9, "The hero proves they have changed and sets things right."),
      beat("Final Image", 1, "The opposite of the opening image: proof of change."),
    ],
  },
  {
    id: "heros-journey",
    name: "Hero's Journey",
    description: "The twelve stages of the monomyth, as Christopher Vogler tells them.",
    builtIn: true,
    beats: [
      beat("Ordinary World", 0, "The hero at home, before the adventure."),
      beat("Call to Adventure", 0.1, "A challenge or quest appears."),
      beat("Refusal of the Call", 0.15, "Fear or duty holds the hero back."),
      beat("Meeting the Mentor", 0.2, "Someone gives advice, training or a gift."),
      beat("Crossing the Threshold", 0.25, "The hero leaves the known world."),
      beat("Tests, Allies, Enemies", 0.35, "The hero learns the rules of the new world."),
      beat("Approach to the Inmost Cave", 0.45, "Preparing for the central ordeal."),
      beat("The Ordeal", 0.5, "A life-or-death crisis: the hero faces their greatest fear."),
      beat("Reward", 0.6, "Having survived, the hero seizes the prize."),
      beat("The Road Back", 0.75, "The hero turns home, pursued by consequences."),
      beat("Resurrection", 0.9, "A final test where everything is at stake; the hero is reborn."),
      beat("Return with the Elixir", 1, "The hero comes home changed, bearing something to share."),
    ],
  },
  {
    id: "seven-point",
    name: "Seven-Point",
    description: "Dan Wells's seven points: plan the resolution, then the hook that mirrors it.",
    builtIn: true,
    beats: [
      beat("Hook", 0, "The hero's starting state, the opposite of the resolution."),
      beat("Plot Turn 1", 0.2, "The call to adventure: the world changes and the story starts moving."),
      beat("Pinch Point 1", 0.375, "The antagonist applies pressure; the hero must act."),
      beat("Midpoint", 0.5, "The hero moves from reacting to acting."),
      beat("Pinch Point 2", 0.625, "More pressure: the plan fails, the hero seems beaten."),
      beat("Plot Turn 2", 0.8, "The hero finds the last piece they need to win."),
      beat("Resolution", 1, "The climax and its outcome: the hero's end state."),
    ],
  },
  {
    id: "romance",
    name: "Romance beats",
    description: "Two leads meet, fall in love, break apart and choose each other (after Romancing the Beat).",
    builtIn: true,
    beats: [
      beat("Introduce the Leads", 0, "Who they are, what they lack and why love is not on the cards."),
      beat("Meet Cute", 0.1, "The leads meet, and the spark is obvious to the reader."),
      beat("No Way", 0.15, "Reasons they cannot be together."),
      beat("Adhesion", 0.2, "Something forces them to keep spending time together."),
      beat("Deepening Desire", 0.35, "They see each other's true selves and want more."),
      beat("Midpoint of Love", 0.5, "A moment of real intimacy: they could be happy."),
      beat("Inkling of Doubt", 0.6, "Old wounds and fears creep back."),
      beat("Break Up", 0.75, "The relationship breaks over the flaw they have not faced."),
      beat("Dark Night of the Soul", 0.8, "Apart and miserable, each faces the truth."),
      beat("Grand Gesture", 0.9, "One of them risks everything to prove they have changed."),
      beat("Happily Ever After", 1, "A glimpse of the life they will share."),
    ],
  },
];

export const builtInTemplate = (id: string) => builtInTemplates.find((t) => t.id === id);
