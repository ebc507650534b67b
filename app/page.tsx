import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** Status page of the foundation build: tells what is ready and what is not yet. */
export default async function Home() {
  let database = "unreachable";
  let users = 0;
  try {
    users = await db().user.count();
    database = "ready";
  } catch (err) {
    console.error("home: database unreachable", err);
  }
  return (
    <main>
      <h1>Phylactery</h1>
      <p className="muted">Design flows of AI agents and the policies that govern them, run them, and approve every risky action.</p>
      <section className="card" data-testid="status">
        <h2>Status</h2>
        <p>
          Database: <strong data-testid="db-status">{database}</strong> ({users} account{users === 1 ? "" : "s"})
        </p>
        <p className="muted">
          This build is the foundation: data model and migrations, the Prisma checkpointer for LangGraph,
          canonical argument hashing and signed approval tokens. Sign-in, the flow editor and the run view are
          not in this build yet.
        </p>
      </section>
    </main>
  );
}
