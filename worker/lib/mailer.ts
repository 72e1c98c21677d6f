export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Local development: the message (and so the reset link) goes to the server log. */
export class LogMailer implements Mailer {
  async send(message: MailMessage) {
    console.log(`[mail] to=${message.to} subject="${message.subject}"\n${message.text}`);
  }
}

/** Production: a transactional mail HTTP API (JSON POST with a bearer key). */
export class HttpMailer implements Mailer {
  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage) {
    const res = await fetch(this.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${this.apiKey}` },
      body: JSON.stringify({ from: this.from, ...message }),
    });
    if (!res.ok) throw new Error(`Mail API answered ${res.status}`);
  }
}

/** The Worker's mail settings (its env's own fields: this module stays below the env's bindings). */
export type MailEnv = { MAILER?: string; MAIL_API_URL?: string; MAIL_API_KEY?: string; MAIL_FROM?: string; ENVIRONMENT?: string };

export function createMailer(env: MailEnv): Mailer {
  if (env.MAILER === "http" && env.MAIL_API_URL && env.MAIL_API_KEY) {
    return new HttpMailer(env.MAIL_API_URL, env.MAIL_API_KEY, env.MAIL_FROM ?? "no-reply@storyweave.app");
  }
  return new LogMailer();
}

/**
 * Why this Worker must not serve with its mail settings, or null. `MAILER=log` writes tokens (reset
 * and verification links) to the log, so it is for local development only: `react-router dev`, or
 * ENVIRONMENT="development" (.dev.vars, the test configs). Anywhere else it refuses to start.
 */
export function mailerConfigProblem(env: MailEnv, dev: boolean): string | null {
  if (env.MAILER === "http") {
    return env.MAIL_API_URL && env.MAIL_API_KEY ? null : "MAILER=http needs MAIL_API_URL and MAIL_API_KEY.";
  }
  if (dev || env.ENVIRONMENT === "development") return null;
  return 'MAILER=log writes reset and verification links to the log and only runs in local development (ENVIRONMENT="development"). Set MAILER=http with MAIL_API_URL and MAIL_API_KEY.';
}
