import { Page, PageHeading } from "~/components/page";

export const meta = () => [{ title: "Account · StoryWeave" }];

export default function Screen() {
  return (
    <Page>
      <PageHeading>Account</PageHeading>
    </Page>
  );
}
