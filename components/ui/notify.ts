"use client";
import { toast } from "sonner";

/**
 * Toasts for the outcome of an action the user took ("Fact accepted.", "Server removed."),
 * shown by the one `<Toaster>` in the root layout (app/layout.tsx) and announced to screen
 * readers by its live region. A toast is a confirmation that fades; an error the user must
 * act on also stays inline next to the form that caused it (with `role="alert"`), and tests
 * assert on that inline text, not on the toast.
 */
export const notify = {
  /** A short sentence saying what was done. */
  success(text: string): void {
    toast.success(text);
  },
  /** A short sentence saying what failed and what to do. */
  error(text: string): void {
    toast.error(text);
  },
};
