import { describe, expect, it } from "vitest";
import { parseApprovalCommand } from "./approval-command";

describe("parseApprovalCommand (the Router's strict regexes)", () => {
  it.each([
    ["APROBAR abc123 tok_456", { kind: "approve", approvalId: "abc123", token: "tok_456" }],
    ["APPROVE appr-01 Zm9vYmFy", { kind: "approve", approvalId: "appr-01", token: "Zm9vYmFy" }],
    ["  APROBAR abc123   tok456  ", { kind: "approve", approvalId: "abc123", token: "tok456" }],
    ["RECHAZAR abc123", { kind: "reject", approvalId: "abc123" }],
    ["REJECT abc_123", { kind: "reject", approvalId: "abc_123" }],
  ])("accepts %j", (text, expected) => {
    expect(parseApprovalCommand(text)).toEqual(expected);
  });

  it.each([
    "aprobar abc123 tok456", // lower case
    "Approve abc123 tok456",
    "APROBAR abc123", // missing token
    "APROBAR abc12 tok456", // short id
    "APROBAR abc123 tok45", // short token
    "APROBAR abc123 tok456 please", // extra words
    "please APROBAR abc123 tok456",
    "RECHAZAR abc123 now",
    "RECHAZAR abc",
    "APROBAR abc123 tok456\nRECHAZAR abc123", // two lines
    "APROBAR abc/123 tok456", // character outside the class
    "yes, approve it",
  ])("refuses the near miss %j", (text) => {
    expect(parseApprovalCommand(text)).toBeNull();
  });
});
