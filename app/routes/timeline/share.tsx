import { Page, PageHeading } from "~/components/page";

export const meta = () => [{ title: "Share Timeline · StoryWeave" }];

export default function Screen() {
  return (
    <Page>
      <PageHeading>Share Timeline</PageHeading>
    </Page>
  );
}
