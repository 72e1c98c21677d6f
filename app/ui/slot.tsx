import { Children, cloneElement, isValidElement, type ReactNode, type Ref } from "react";

// `asChild` without radix's Slot in the first page's JavaScript (it stays in the dialogs and menus
// that load on use). Same merge rules as radix: the child's props win, except that event handlers run both
// (the child's first), classes and styles combine, and both refs are set.

type Props = Record<string, unknown> & { children?: ReactNode; ref?: Ref<unknown> };

function setRef(ref: unknown, value: unknown) {
  if (typeof ref === "function") ref(value);
  else if (ref && typeof ref === "object") (ref as { current: unknown }).current = value;
}

export function Slot({ children, ...slotProps }: Props) {
  const child = Children.only(children);
  if (!isValidElement<Props>(child)) return null;
  const childProps = child.props;
  const merged: Props = { ...slotProps, ...childProps };
  for (const key of Object.keys(slotProps)) {
    const mine = slotProps[key];
    const theirs = childProps[key];
    if (theirs === undefined) merged[key] = mine;
    else if (/^on[A-Z]/.test(key) && typeof mine === "function" && typeof theirs === "function") {
      merged[key] = (...args: unknown[]) => {
        theirs(...args);
        mine(...args);
      };
    } else if (key === "className") merged[key] = [mine, theirs].filter(Boolean).join(" ");
    else if (key === "style") merged[key] = { ...(mine as object), ...(theirs as object) };
  }
  if (slotProps.ref && childProps.ref) {
    merged.ref = (value: unknown) => {
      setRef(slotProps.ref, value);
      setRef(childProps.ref, value);
    };
  }
  return cloneElement(child, merged);
}
