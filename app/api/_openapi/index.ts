import type { ApiOperation } from "@/lib/openapi/operation";
import { adminOperations } from "./admin";
import { approvalOperations } from "./approvals";
import { flowOperations } from "./flows";
import { healthOperations } from "./health";
import { invitationOperations } from "./invitations";
import { keyOperations } from "./keys";
import { langgraphOperations } from "./langgraph";
import { langgraphRunOperations } from "./langgraph-runs";
import { libraryOperations } from "./library";
import { mcpOperations } from "./mcp";
import { memoryOperations } from "./memory";
import { secretOperations } from "./secrets";
import { settingsOperations } from "./settings";
import { threadOperations } from "./threads";
import { webhookOperations } from "./webhooks";
import { workspaceOperations } from "./workspaces";

/** Every documented operation, by area; one file per area so that areas are added without touching each other. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...threadOperations,
  ...flowOperations,
  ...approvalOperations,
  ...memoryOperations,
  ...workspaceOperations,
  ...invitationOperations,
  ...mcpOperations,
  ...keyOperations,
  ...webhookOperations,
  ...secretOperations,
  ...libraryOperations,
  ...langgraphOperations,
  ...langgraphRunOperations,
  ...settingsOperations,
  ...adminOperations,
  ...healthOperations,
];
