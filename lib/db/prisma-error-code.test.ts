import { describe, expect, it } from "vitest";
import { Prisma } from "../../generated/prisma/client";
import { isSqliteBusy } from "./prisma-error-code";

/** A known request error as Prisma's client engine makes it from a driver adapter error. */
function known(code: string, message: string, cause: Record<string, unknown>): Error {
  return new Prisma.PrismaClientKnownRequestError(message, {
    code,
    clientVersion: "test",
    meta: { driverAdapterError: { name: "DriverAdapterError", cause } },
  });
}

describe("isSqliteBusy", () => {
  it("is told by the driver's code: P1008 from SQLITE_BUSY, whatever the message says", () => {
    expect(isSqliteBusy(known("P1008", "Operation has timed out", { kind: "SocketTimeout", originalCode: "SQLITE_BUSY" }))).toBe(true);
    expect(isSqliteBusy(known("P2010", "Raw query failed.", { kind: "sqlite", originalCode: "SQLITE_BUSY_SNAPSHOT" }))).toBe(true);
    expect(isSqliteBusy(Object.assign(new Error("no message rule"), { code: "SQLITE_LOCKED" }))).toBe(true);
  });

  it("is not fooled by a message: text that says locked, or a PostgreSQL timeout (also P1008), is no SQLite lock", () => {
    expect(isSqliteBusy(new Error("database is locked"))).toBe(false);
    expect(isSqliteBusy(new Error("SQLITE_BUSY: database is locked"))).toBe(false);
    expect(isSqliteBusy(known("P1008", "Operation has timed out", { kind: "SocketTimeout" }))).toBe(false);
    expect(isSqliteBusy(known("P2002", "database is locked", { kind: "UniqueConstraintViolation", originalCode: "SQLITE_CONSTRAINT_UNIQUE" }))).toBe(false);
    expect(isSqliteBusy(undefined)).toBe(false);
    expect(isSqliteBusy("SQLITE_BUSY")).toBe(false);
  });
});
