import { Check } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import {
  LAYOUT_CHOICES,
  type LayoutMenuProps,
  LayoutTrigger,
  type PanelsMenuProps,
  PanelsTrigger,
} from "~/features/timeline/desk-menu-parts";
import type { TimelineLayout } from "~/features/timeline/timeline-view";

const content = "z-50 min-w-48 rounded-md border border-stone-200 bg-white p-1 shadow-lg";
const item =
  "flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-ink outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-700 data-[disabled]:cursor-default data-[disabled]:opacity-50";

// The radix menus behind the timeline's Layout and Panels buttons: loaded on first use (desk-menus.tsx).

/**
 * The layout menu: one button naming the current layout ('Layout: Vertical'); its menu is a radio group of the
 * layouts, the current one checked; arrows move, Enter picks. Each layout stays in the address (`?layout=grid`).
 */
export function RadixLayoutMenu({ layout, onLayout, defaultOpen }: LayoutMenuProps & { defaultOpen?: boolean }) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>
        <LayoutTrigger layout={layout} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="start" sideOffset={4} className={content} aria-label="Layout">
          <DropdownMenu.RadioGroup value={layout} onValueChange={(value) => onLayout(value as TimelineLayout)}>
            {LAYOUT_CHOICES.map(({ value, label, Icon, preload }) => (
              <DropdownMenu.RadioItem key={value} value={value} className={item} onPointerEnter={preload} onFocus={preload}>
                <Icon aria-hidden="true" className="h-4 w-4" />
                <span className="flex-1">{label}</span>
                <DropdownMenu.ItemIndicator>
                  <Check aria-hidden="true" className="h-4 w-4" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The Panels menu: every dialog of the timeline screen behind one button; each entry opens its dialog. */
export function RadixPanelsMenu({ panels, defaultOpen }: PanelsMenuProps & { defaultOpen?: boolean }) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>
        <PanelsTrigger />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className={content} aria-label="Panels">
          {panels.map(({ key, label, Icon, onSelect, preload, offlineNote }) => (
            <DropdownMenu.Item
              key={key}
              className={item}
              disabled={offlineNote !== undefined}
              aria-describedby={offlineNote}
              onPointerEnter={preload}
              onFocus={preload}
              onSelect={onSelect}
            >
              <Icon aria-hidden="true" className="h-4 w-4" />
              {label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
