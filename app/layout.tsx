import type { Metadata, Viewport } from "next";
import Script from "next/script";
import type { ReactNode } from "react";
import { Toaster } from "@/components/ui/toaster";
import "./globals.css";

/**
 * Every page's title reads "<page> · Phylactery" (a page sets its own `title`); the favicon
 * is app/icon.svg and the home-screen icon app/apple-icon.png, both found by file name.
 */
export const metadata: Metadata = {
  title: { default: "Phylactery", template: "%s · Phylactery" },
  description: "Design flows of AI agents and the policies that govern them; approve every risky action.",
  applicationName: "Phylactery",
};

/** The browser's chrome takes the page background of the system's theme (app/globals.css). */
export const viewport: Viewport = {
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f7f9" },
    { media: "(prefers-color-scheme: dark)", color: "#14161a" },
  ],
};

/**
 * Zod compiles object parsers with `new Function` when it may, and probes for that with a
 * caught `new Function("")`, which the Content Security Policy reports as a violation
 * (docs/security.md "Sign-in"). In the browser it parses without compiling instead; the
 * setting must exist before any schema module is evaluated, hence a script that runs
 * before the app's own code.
 */
const ZOD_JITLESS = "globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});";

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Script id="zod-jitless" strategy="beforeInteractive">
          {ZOD_JITLESS}
        </Script>
        {children}
        <Toaster />
      </body>
    </html>
  );
}
