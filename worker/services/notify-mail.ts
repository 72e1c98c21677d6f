import type { Mailer } from "../lib/mailer";

/**
 * How a notification reaches a writer's mailbox: the site's origin for links, the mailer, a way to finish the send
 * after the response, and the Worker's settings (the budgets' `RATE_*` values). Its own module, so services that only
 * pass it along (deps.ts) import nothing of the notifications' code.
 */
export type NotifyMail = { origin: string; mailer: Mailer; defer: (p: Promise<unknown>) => void; env?: object };
