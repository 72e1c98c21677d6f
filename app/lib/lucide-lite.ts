import { createElement, type ReactNode, type Ref, type SVGProps } from "react";

// Issue 11: lucide-react's icons draw through this small createLucideIcon (vite.config.ts points the icon
// modules here in builds): the same <svg> (lucide classes, 24×24, currentColor strokes, aria-hidden unless the
// icon is labelled) without the library's general-purpose runtime (sizes by context, absolute stroke widths…),
// which the first page would otherwise load. `npm run dev` uses the library itself.

type IconData = { name?: string; size?: number; node: [string, Record<string, string>][] };
type IconProps = SVGProps<SVGSVGElement> & {
  size?: number | string;
  color?: string;
  strokeWidth?: number | string;
  ref?: Ref<SVGSVGElement>;
  children?: ReactNode;
};

const labelled = (props: Record<string, unknown>) =>
  Object.keys(props).some((key) => (key.startsWith("aria-") || key === "role" || key === "title") && props[key] != null);

export default function createLucideIcon(icon: IconData) {
  const box = icon.size ?? 24;
  function LucideIcon({ size = 24, color = "currentColor", strokeWidth = 2, className, children, ...rest }: IconProps) {
    return createElement(
      "svg",
      {
        xmlns: "http://www.w3.org/2000/svg",
        width: size,
        height: size,
        viewBox: `0 0 ${box} ${box}`,
        fill: "none",
        stroke: color,
        strokeWidth,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: ["lucide", icon.name ? `lucide-${icon.name}` : "", className ?? ""].filter(Boolean).join(" "),
        ...(children != null || labelled(rest) ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      ...icon.node.map(([tag, attrs]) => createElement(tag, attrs)),
      children,
    );
  }
  return LucideIcon;
}
