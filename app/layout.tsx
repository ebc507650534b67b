import type { Metadata } from "next";
import Script from "next/script";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Phylactery",
  description: "Design flows of AI agents and the policies that govern them; approve every risky action.",
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
      </body>
    </html>
  );
}
