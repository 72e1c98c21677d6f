import { FlaskConical } from "lucide-react";
import { useState } from "react";
import { useLoaderData } from "react-router";
import { Page, PageHeading } from "~/ui/page";
import { Button } from "~/ui/button";
import { Card, CardContent } from "~/ui/card";
import { useMutation } from "~/lib/use-mutation";
import { cut } from "~/features/assistant/ai";
import { client, unwrap } from "~/lib/client";
import { requireUser } from "~/lib/session.server";
import { showToast } from "~/lib/toast";
import type { Route } from "./+types/api-test";

export const meta = () => [{ title: "API Test · StoryWeave" }];

/** The test spends the AI key uncounted, so only admins may run it. */
export function loader({ context }: Route.LoaderArgs) {
  return { isAdmin: requireUser(context).role === "admin" };
}

export default function Screen() {
  const { isAdmin } = useLoaderData<typeof loader>();
  const [result, setResult] = useState<unknown>(null);
  const test = useMutation((): Promise<{ success: boolean; error?: string }> => unwrap(client.api.test.openai.$get()), {
    success: (json) =>
      json.success ? undefined : { title: "Test request failed", description: cut(json.error ?? ""), variant: "destructive" },
    error: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      setResult({ error: message });
      showToast({ title: "Failed to test OpenAI API", description: cut(message), variant: "destructive" });
    },
    revalidate: false,
    onSuccess: setResult,
  });
  const pending = test.pending;
  const run = () => void test.run();

  return (
    <Page className="max-w-3xl">
      <PageHeading>API Test</PageHeading>
      <p className="mb-4 text-sm text-stone-600">Sends a tiny request to the configured AI server and shows the raw answer.</p>
      {isAdmin ? (
        <Button onClick={run} disabled={pending}>
          <FlaskConical aria-hidden="true" className="h-4 w-4" />
          {pending ? "Testing..." : "Test OpenAI API"}
        </Button>
      ) : (
        <p role="status" className="rounded-md border border-stone-200 bg-stone-50 p-4 text-sm text-stone-700">
          Only admins can test the AI connection.
        </p>
      )}
      {result !== null ? (
        <Card className="mt-6">
          <CardContent className="pt-6">
            <pre data-testid="api-test-result" className="overflow-x-auto rounded-md bg-stone-900 p-4 text-xs text-stone-100">
              {JSON.stringify(result, null, 2)}
            </pre>
          </CardContent>
        </Card>
      ) : null}
    </Page>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
