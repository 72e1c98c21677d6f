import { ArchiveArrowDown } from "lucide-react";
import { Button } from "~/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/ui/card";

/** 'Your data': one zip of everything the writer owns (GET /api/account/export, a plain download). */
export function AccountDataCard() {
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Your data</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <p className="text-stone-600">
          One zip file with every timeline you own (as StoryWeave JSON, which Import reads back, and as Markdown), their attachments, and
          your account details, plan and AI use.
        </p>
        <Button asChild variant="outline">
          <a href="/api/account/export" download>
            <ArchiveArrowDown aria-hidden="true" className="mr-2 h-4 w-4" /> Download all my data
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}
