import { data } from "react-router";
import { HttpError } from "../../worker/lib/errors";

/**
 * A service's 404 (missing, or not yours: the same answer) becomes a thrown 404 response that the
 * route's ErrorBoundary renders; anything else goes on to the general boundary.
 */
export function rethrowAsNotFound(error: unknown): never {
  if (error instanceof HttpError && error.status === 404) throw data(error.message, { status: 404 });
  throw error;
}
