/**
 * Seeds the demo account (DEMO_EMAIL / DEMO_PASSWORD, default demo@phylactery.dev /
 * phylactery) and gives it the template flows. Idempotent: re-running updates the password
 * hash and adds only templates the account does not have yet.
 */
import bcrypt from "bcryptjs";
import { createDb } from "../lib/db/client";
import { env } from "../lib/env";
import { FlowDocument } from "../lib/flow/schema";
import { TEMPLATES as BY_KEY } from "../templates";

const TEMPLATES = Object.entries(BY_KEY).map(([key, doc]) => ({ key, doc }));

async function main(): Promise<void> {
  const { DEMO_EMAIL, DEMO_PASSWORD } = env();
  const db = createDb();
  try {
    const passwordHash = await bcrypt.hash(DEMO_PASSWORD, 10);
    const user = await db.user.upsert({
      where: { email: DEMO_EMAIL.toLowerCase() },
      update: { passwordHash },
      create: { email: DEMO_EMAIL.toLowerCase(), name: "Demo", passwordHash },
    });
    for (const t of TEMPLATES) {
      const exists = await db.flow.findFirst({ where: { ownerId: user.id, templateKey: t.key } });
      if (exists) continue;
      const doc = FlowDocument.parse(t.doc);
      await db.flow.create({
        data: {
          ownerId: user.id,
          name: doc.settings.name,
          description: doc.settings.description,
          templateKey: t.key,
          versions: { create: { version: 1, document: JSON.stringify(doc), message: "From template", authorId: user.id } },
        },
      });
      console.log(`seed: template flow "${doc.settings.name}" added`);
    }
    console.log(`seed: demo account ${DEMO_EMAIL} ready`);
  } finally {
    await db.$disconnect();
  }
}

main().catch((err) => {
  console.error("seed failed:", err);
  process.exit(1);
});
