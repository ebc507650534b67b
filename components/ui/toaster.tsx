"use client";
import { Toaster as Sonner } from "sonner";

/**
 * The app's one toast region (see components/ui/notify.ts): bottom right, in the system's
 * light or dark theme, coloured by outcome, with an accessible close button.
 */
export function Toaster() {
  return <Sonner theme="system" position="bottom-right" richColors closeButton duration={4000} />;
}
