import { describe, expect, it } from "vitest";
import { TEMPLATES } from "../../templates";
import { AGENT_ICON_LABEL, AGENT_ICON_NAMES, agentIconName, isAgentIconName } from "./agent-icons";
import { AgentData } from "./schema";

describe("agentIconName", () => {
  it("keeps a known lucide name", () => {
    for (const name of AGENT_ICON_NAMES) expect(agentIconName(name)).toBe(name);
  });

  it("maps the emoji of older documents to their nearest icon, with or without a variation selector", () => {
    expect(agentIconName("🤖")).toBe("bot");
    expect(agentIconName("📁")).toBe("folder");
    expect(agentIconName("🔎")).toBe("search");
    expect(agentIconName("✍️")).toBe("pen-line");
    expect(agentIconName("✍")).toBe("pen-line");
    expect(agentIconName("📚")).toBe("book-open");
    expect(agentIconName("🧠")).toBe("brain");
    expect(agentIconName("🙋")).toBe("hand");
  });

  it("falls back to the robot for anything else", () => {
    expect(agentIconName("")).toBe("bot");
    expect(agentIconName("x")).toBe("bot");
    expect(agentIconName("not-an-icon")).toBe("bot");
  });

  it("maps every agent icon of the templates to an icon of its own, not the fallback", () => {
    for (const doc of Object.values(TEMPLATES)) for (const n of doc.nodes) if (n.type === "agent" && n.data.icon !== "🤖" && n.data.icon !== "bot") expect(agentIconName(n.data.icon)).not.toBe("bot");
  });
});

describe("the icon set", () => {
  it("has a label for every name, and every name fits the schema's icon field", () => {
    for (const name of AGENT_ICON_NAMES) {
      expect(AGENT_ICON_LABEL[name]).toBeTruthy();
      expect(isAgentIconName(name)).toBe(true);
      expect(AgentData.shape.icon.safeParse(name).success).toBe(true);
    }
    expect(AgentData.parse({ name: "A" }).icon).toBe("bot");
  });
});
