import { Bot, Compass, Flag, type LucideIcon, type LucideProps, Play, Shield, Split, UserRound, Wrench } from "lucide-react";
import type { NodeKind } from "@/lib/flow/react-flow";

/** The icon of each node kind on the canvas, in the palette and in the inspector (lucide, never a font glyph). */
export const KIND_ICONS: Readonly<Record<NodeKind, LucideIcon>> = {
  start: Play,
  end: Flag,
  supervisor: Compass,
  agent: Bot,
  tool: Wrench,
  policy: Shield,
  human_input: UserRound,
  router: Split,
};

/** A node kind's icon, decorative (`aria-hidden`), 1em square so it sits in text. */
export function KindIcon({ kind, size = "1em", ...rest }: { kind: NodeKind } & Omit<LucideProps, "ref">) {
  const Icon = KIND_ICONS[kind];
  return <Icon size={size} aria-hidden focusable="false" style={{ verticalAlign: "-0.125em", flexShrink: 0 }} {...rest} />;
}
