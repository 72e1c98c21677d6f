import { isRouteErrorResponse, useRouteError } from "react-router";
import { messages } from "../../db/domain/rules";

/**
 * The general error screen: a thrown 404 (not found or not allowed) or any unexpected error.
 * Route modules re-export it as their `ErrorBoundary`; pages with their own 404 look wrap it.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  let title = "Something went wrong";
  let details: string = messages.unexpected;
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "404 Page Not Found";
      details = "The page you're looking for doesn't exist or you don't have access to it.";
    } else {
      title = `${error.status} ${error.statusText || "Error"}`;
      details = typeof error.data === "string" ? error.data : details;
    }
  }
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-stone-600">{details}</p>
      <a href="/" className="mt-6 inline-block font-medium text-brand-700 hover:underline">
        Go home
      </a>
    </main>
  );
}

/** A timeline that does not exist or is not yours answers 404 with its own screen. */
export const isNotFound = (error: unknown) => isRouteErrorResponse(error) && error.status === 404;
