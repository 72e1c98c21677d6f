import type { RouterContextProvider } from "react-router";
import { configuredProviders } from "../../worker/services/oauth";
import { listSignInMethods, signInChangeRefusal } from "../../worker/services/sign-in-methods";
import { app, requireUser } from "./session.server";

/** The account page's sign-in methods: what is connected, and what could be. */
export async function signInMethodsOf(context: Readonly<RouterContextProvider>) {
  const user = requireUser(context);
  const { db, env, auth } = app(context);
  return {
    ...(await listSignInMethods(db, user)),
    available: configuredProviders(env),
    emailVerified: user.isEmailVerified,
    /** False when this session signed in more than 10 minutes ago: changes need a fresh sign-in. */
    signedInRecently: auth.session ? signInChangeRefusal(auth.session, "disconnect") === null : false,
  };
}
