import { data, Link } from "react-router";
import { Page } from "~/ui/page";
import { Button } from "~/ui/button";

export const meta = () => [{ title: "404 Page Not Found · StoryWeave" }];

export function loader() {
  return data(null, 404);
}

export default function NotFound() {
  return (
    <Page className="!pt-24 text-center">
      <h1 className="text-4xl font-bold">404 Page Not Found</h1>
      <p className="mt-3 text-stone-600">The page you're looking for doesn't exist or has moved.</p>
      <Button asChild className="mt-8">
        <Link to="/">Go home</Link>
      </Button>
    </Page>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
