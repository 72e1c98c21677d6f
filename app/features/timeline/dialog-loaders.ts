// The timeline screen's dialogs load on first use (or when the pointer nears their button), not with the page.

/** Share (only owners on Premium ever open it). */
export const loadShareDialog = () => import("~/features/share/share-dialog");

/** Add Event and Edit Event. */
export const loadForms = () => import("~/features/timeline/timeline-forms");
