import { Link } from "react-router";
import type { SeriesMention as Mention } from "../../../worker/services/series";

/** "Book 2 of The Saga" under a book's title, linking to the series page. */
export default function SeriesMention({ series }: { series: Mention }) {
  return (
    <p className="text-sm text-stone-700">
      Book {series.position} of{" "}
      <Link to={`/series/${series.id}`} className="font-medium text-brand-800 underline underline-offset-2">
        {series.title}
      </Link>
    </p>
  );
}
