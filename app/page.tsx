import { redirect } from "next/navigation";

/** The root sends people to their flows (or to sign-in, via the app layout). */
export default function Home() {
  redirect("/flows");
}
