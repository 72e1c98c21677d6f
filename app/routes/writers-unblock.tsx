import { Page, PageHeading } from "~/components/page";

export const meta = () => [{ title: "Writer's Unblock · StoryWeave" }];

export default function Screen() {
  return (
    <Page>
      <PageHeading>Writer's Unblock</PageHeading>
    </Page>
  );
}
