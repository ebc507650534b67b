import { z } from "zod";

/** GET query: none is read (unknown keys, e.g. a cache buster, are ignored). */
export const Query = z.object({});

/** Milliseconds between two `: keep-alive` comments, so proxies keep the stream open. */
export const KEEP_ALIVE_MS = 15_000;
