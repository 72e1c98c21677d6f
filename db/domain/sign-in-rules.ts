// Kept apart from rules.ts (which every page loads): only the sign-in pages, /account and the Worker need these.

// OAuth sign-in: the providers, their button labels and what the login page says when a sign-in fails.
export const oauthProviders = ["github", "google"] as const;
export type OAuthProvider = (typeof oauthProviders)[number];
export const oauthProviderLabels: Record<OAuthProvider, string> = { github: "GitHub", google: "Google" };
/** Changing how an account signs in: the refusals, word for word. */
export const signInMethodMessages = {
  verifyFirst: "Verify your email before connecting another sign-in method",
  signInAgain: "Please sign in again to continue",
  lastMethod: "Add a password or another sign-in method first",
  notConnected: "This sign-in method is not connected",
} as const;
/** Connecting or removing a sign-in method needs a sign-in (a session created) this recently. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;
export const oauthErrors = {
  state: "Sign-in could not be completed (the request expired or did not come from this browser). Please try again.",
  denied: "Sign-in was cancelled.",
  exchange: "The sign-in provider did not accept the request. Please try again.",
  profile: "We could not read your profile from the sign-in provider. Please try again.",
  no_email: "Your account at the sign-in provider has no email address we can use.",
  unverified_email:
    "An account with this email already exists, and the sign-in provider has not verified this email. Sign in with your password, then connect it from your account page.",
  linked_elsewhere: "That account at the sign-in provider is already connected to another StoryWeave account.",
  not_configured: "This sign-in method is not available.",
  verify_email: signInMethodMessages.verifyFirst,
  sign_in_again: signInMethodMessages.signInAgain,
  failed: "Sign-in failed. Please try again.",
} as const;
export type OAuthErrorCode = keyof typeof oauthErrors;
