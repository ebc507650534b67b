import { Prisma } from "../../generated/prisma/client";

/**
 * The Prisma error code of `err` (e.g. "P2002"), when it is Prisma's known request error
 * (`Prisma.PrismaClientKnownRequestError` of the generated client). The class name is
 * accepted too, in case a bundler loaded a second copy of Prisma's runtime.
 */
export function prismaErrorCode(err: unknown): string | undefined {
  if (err instanceof Prisma.PrismaClientKnownRequestError) return err.code;
  if (err instanceof Error && err.name === "PrismaClientKnownRequestError" && "code" in err && typeof err.code === "string") return err.code;
  return undefined;
}
