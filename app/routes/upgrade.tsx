import { Page, PageHeading } from "~/components/page";

export const meta = () => [{ title: "Upgrade · StoryWeave" }];

export default function Screen() {
  return (
    <Page>
      <PageHeading>Upgrade</PageHeading>
    </Page>
  );
}
