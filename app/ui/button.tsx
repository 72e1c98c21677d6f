import type { ComponentProps } from "react";
import { cn } from "~/lib/cn";
import { Slot } from "./slot";

const variants = {
  default: "bg-brand-600 text-white hover:bg-brand-700 shadow-sm",
  outline: "border border-stone-300 bg-white text-ink hover:bg-stone-100",
  ghost: "text-ink hover:bg-stone-100",
  destructive: "bg-red-600 text-white hover:bg-red-700 shadow-sm",
  link: "text-brand-700 underline-offset-4 hover:underline px-0",
} as const;

const sizes = {
  default: "h-10 px-4 py-2",
  sm: "h-8 px-3 text-sm",
  lg: "h-11 px-6",
  icon: "h-9 w-9",
} as const;

export type ButtonProps = ComponentProps<"button"> & {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  asChild?: boolean;
};

export function Button({ variant = "default", size = "default", asChild, className, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  return (
    <Comp
      className={cn(
        "inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium transition-colors",
        "disabled:pointer-events-none disabled:opacity-50 cursor-pointer",
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
