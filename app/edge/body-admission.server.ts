import type { IncomingMessage, ServerResponse } from "node:http";
import { BODY_LIMIT_BYTES } from "../http/request-body.server";

/**
 * Body admission (decision 093): a request's body arrives before the request takes one of the working slots of load
 * shedding, so a client that sends its body slowly holds a connection, never a slot. A body of a form (up to
 * BODY_LIMIT_BYTES, announced or streamed) is held in memory first, within BODY_DEADLINE_MS, and given to the
 * request's stream once whole: the app reads it as it would have read it from the connection. A body that does not
 * arrive in time is answered 408 and its connection closed. A larger body — an upload to the import, up to its own
 * limit — is admitted as an upload before it arrives (load shedding bounds the slots uploads hold); one larger than
 * its path takes is admitted at once, to be answered 413 without being read. No client (its address, as Express sees
 * it: TRUST_PROXY applied) sends more than BODIES_PER_CLIENT bodies at once: the next one is answered 429.
 */

/** The most a body read before admission holds in memory: a form's. */
export const ADMITTED_BODY_BYTES = BODY_LIMIT_BYTES;
/** How long a form's body may take to arrive: at most 64 KiB in 10 s, a rate any connection reaches. */
export const BODY_DEADLINE_MS = 10_000;
/** Bodies one client sends at once before admission. */
export const BODIES_PER_CLIENT = 16;

/** How a request whose body arrived (or is not read here) goes on: an upload takes an upload's place. */
export type Admitted = (kind: { upload: boolean }) => void;

type Options = {
  /** The largest body a request path takes in any form (request-body.server.ts). */
  limitFor: (pathname: string) => number;
  /** The client a request comes from. */
  clientOf: (req: IncomingMessage) => string;
  /** Answers 429 (too many bodies from the client) or 408 (too slow), with the headers every answer carries. */
  refuse: (req: IncomingMessage, res: ServerResponse, status: 408 | 429) => void;
  /** Told of a request whose body is awaited before its admission. */
  awaiting?: (req: IncomingMessage) => void;
};

const pathOf = (url: string) => {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
};

export function bodyAdmission({ limitFor, clientOf, refuse, awaiting }: Options) {
  const bodiesOf = new Map<string, number>();
  let waiting = 0;

  function receive(req: IncomingMessage, res: ServerResponse, next: Admitted) {
    const length = req.headers["content-length"];
    const chunked = req.headers["transfer-encoding"] !== undefined;
    if (!chunked && (length === undefined || Number(length) === 0)) return next({ upload: false });
    if (req.complete) return next({ upload: false });
    if (!chunked && !(Number(length) <= ADMITTED_BODY_BYTES))
      return next({ upload: Number(length) <= limitFor(pathOf(req.url ?? "/")) });
    const client = clientOf(req);
    const bodies = bodiesOf.get(client) ?? 0;
    if (bodies >= BODIES_PER_CLIENT) return refuse(req, res, 429);
    bodiesOf.set(client, bodies + 1);
    waiting++;
    awaiting?.(req);

    // What arrives is held back from the request's stream (its `push`, which the HTTP parser calls) until the body is
    // whole, then given to it with its end: the app reads it as it would have read it from the connection. Reading the
    // stream here instead would end it before the app reads it when the body is empty.
    const chunks: Buffer[] = [];
    let size = req.readableLength;
    let finished = false;
    const finish = () => {
      if (finished) return false;
      finished = true;
      clearTimeout(timer);
      delete (req as { push?: unknown }).push;
      res.off("close", onClose);
      waiting--;
      const left = bodiesOf.get(client)! - 1;
      if (left === 0) bodiesOf.delete(client);
      else bodiesOf.set(client, left);
      return true;
    };
    const handOn = (upload: boolean, ended: boolean) => {
      if (!finish()) return;
      for (const chunk of chunks) req.push(chunk);
      if (ended) req.push(null);
      next({ upload });
    };
    req.push = (chunk: Buffer | null) => {
      if (chunk === null) {
        handOn(false, true);
        return false;
      }
      chunks.push(chunk);
      size += chunk.length;
      // Streamed past a form's size: an upload where the path takes one, otherwise answered 413 as it is read on.
      if (size > ADMITTED_BODY_BYTES) handOn(limitFor(pathOf(req.url ?? "/")) > ADMITTED_BODY_BYTES, false);
      return true;
    };
    const onClose = () => void finish();
    const timer = setTimeout(() => {
      if (!finish()) return;
      req.socket.pause();
      refuse(req, res, 408);
    }, BODY_DEADLINE_MS);
    res.once("close", onClose);
  }

  return {
    receive,
    /** Bodies being received, not yet admitted. */
    get waiting() {
      return waiting;
    },
  };
}
