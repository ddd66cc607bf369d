/**
 * How many uploads one server process takes at once. An upload holds a slot from before
 * its body is read until its files are in the database; requests beyond the slots wait
 * in a short queue (their bodies unread, so they cost a socket, not memory), and beyond
 * the queue, or after waiting too long, they are told to come back later (503 with
 * Retry-After). Writing files into the database goes through a second gate of one slot:
 * one request at a time writes, and the others finish in the order they came.
 */
import type { FastifyReply } from 'fastify';
import { HttpError } from './errors.js';

/**
 * Uploads received at once by one process. Each streams to a temporary file (a few tens
 * of kilobytes of buffers in memory), so the bound is on disk and open files: at most
 * 8 × 40 MB in the temporary folder. More would not be faster: files reach the database
 * one at a time anyway.
 */
export const MAX_CONCURRENT_UPLOADS = 8;
/**
 * Uploads that may wait for a slot. A waiting request is only an open connection whose
 * body is not read; past this many, a flood is answered at once instead of piling up.
 */
export const MAX_WAITING_UPLOADS = 32;
/**
 * Longest wait for a slot: long enough for a full set of uploads ahead to finish (twenty
 * registrations of 40 MB take about half a minute on two busy cores), well within the two
 * minutes the app gives a registration before it tells the person to try again.
 */
export const MAX_UPLOAD_WAIT_MS = 30_000;
/** Seconds a refused upload is asked to wait: about what the uploads ahead of it need. */
export const BUSY_RETRY_AFTER_SECONDS = 30;

/** The gate is full, or the wait was too long. */
export class GateBusy extends Error {
  constructor() {
    super('Too many uploads at once');
    this.name = 'GateBusy';
  }
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: Error) => void;
  cancel: () => void;
}

/** A counting semaphore with a bounded, time-limited queue. */
export class Gate {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly options: {
      slots: number;
      /** Most waiting requests; Infinity for no bound. */
      queue: number;
      /** Longest wait in milliseconds; Infinity waits as long as it takes. */
      maxWaitMs: number;
    },
  ) {}

  /** Slots in use and requests waiting, for tests and diagnostics. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /**
   * Takes a slot, waiting for one if need be; resolves to the function that gives it
   * back (calling it twice gives it back once). Throws GateBusy when the queue is full
   * or the wait too long, and the signal's reason when it is aborted while waiting.
   */
  enter(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.active < this.options.slots && this.waiting.length === 0) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.options.queue) return Promise.reject(new GateBusy());
    return new Promise((resolve, reject) => {
      const leave = (error: Error) => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        waiter.cancel();
        reject(error);
      };
      const onAbort = () => leave(signal?.reason as Error);
      const timer = Number.isFinite(this.options.maxWaitMs)
        ? setTimeout(() => leave(new GateBusy()), this.options.maxWaitMs)
        : null;
      const waiter: Waiter = {
        resolve,
        reject,
        cancel: () => {
          if (timer) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        // The slot passes straight to the next in line: active stays the same.
        next.cancel();
        next.resolve(this.releaser());
      } else {
        this.active -= 1;
      }
    };
  }
}

/** Uploads of this process (registrations with documents, document uploads). */
export const uploadGate = new Gate({
  slots: MAX_CONCURRENT_UPLOADS,
  queue: MAX_WAITING_UPLOADS,
  maxWaitMs: MAX_UPLOAD_WAIT_MS,
});

/** Requests writing their files into the database, in this process: one at a time. */
export const documentWriter = new Gate({ slots: 1, queue: Infinity, maxWaitMs: Infinity });

/** Aborted when the client goes away before its answer is sent. */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) {
      // A 4xx: a client leaving is no failure of the server, and is not logged as one.
      controller.abort(new HttpError(400, 'The upload was interrupted before it was complete.'));
    }
  });
  return controller.signal;
}

/**
 * Runs `work` holding an upload slot; answers 503 with Retry-After when none is free in
 * time. The reply is sent here rather than thrown: the error handler hides every 5xx
 * behind one message, and this one must tell the client to come back.
 */
export async function withUploadSlot<T>(
  reply: FastifyReply,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T | FastifyReply> {
  let release: () => void;
  try {
    release = await uploadGate.enter(signal);
  } catch (error) {
    if (!(error instanceof GateBusy)) throw error;
    return reply.status(503).header('retry-after', String(BUSY_RETRY_AFTER_SECONDS)).send({
      message: 'The server is receiving many documents right now. Please try again shortly.',
      code: 'UPLOADS_BUSY',
      retryAfter: BUSY_RETRY_AFTER_SECONDS,
    });
  }
  try {
    return await work();
  } finally {
    release();
  }
}
