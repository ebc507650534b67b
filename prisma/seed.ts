/**
 * Seeds the demo account (DEMO_EMAIL / DEMO_PASSWORD, default demo@phylactery.dev /
 * phylactery). Idempotent: re-running updates the password hash only.
 */
import bcrypt from "bcryptjs";
import { createDb } from "../lib/db/client";
import { env } from "../lib/env";

async function main(): Promise<void> {
  const { DEMO_EMAIL, DEMO_PASSWORD } = env();
  const db = createDb();
  try {
    const passwordHash = await bcrypt.hash(DEMO_PASSWORD, 10);
    await db.user.upsert({
      where: { email: DEMO_EMAIL },
      update: { passwordHash },
      create: { email: DEMO_EMAIL, name: "Demo", passwordHash },
    });
    console.log(`seed: demo account ${DEMO_EMAIL} ready`);
  } finally {
    await db.$disconnect();
  }
}

main().catch((err) => {
  console.error("seed failed:", err);
  process.exit(1);
});
