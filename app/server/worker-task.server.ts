import { Worker } from "node:worker_threads";

/**
 * Work the server hands to a thread of its own (ADR 089): the FSRS fit, the reading of an uploaded Anki collection.
 * The thread gets a heap of its own with a limit, and a deadline after which it is ended; the server's event loop only
 * waits for one message. The thread's code is the source of the task's functions (the build bundles no worker file),
 * so each of them must use nothing from outside its body but its arguments and the other functions of the task.
 */

/** The task took longer than its deadline: its thread was ended. */
export class TaskDeadline extends Error {}
/** The task's thread ran out of the memory it was given, or stopped for another reason before answering. */
export class TaskStopped extends Error {}

// oxlint-disable-next-line typescript/no-explicit-any -- the module is whatever `require` gives the worker
export type TaskEntry<I, O> = (module: any, input: I) => O | Promise<O>;

export type WorkerTask<I, O> = {
  /** The function the thread runs: it gets the loaded `module` and `input`, and its answer (or promise) is the result. */
  entry: TaskEntry<I, O>;
  /** Other function declarations `entry` calls, by name. */
  helpers?: ((...args: never[]) => unknown)[];
  /** What the thread loads with `require` for `entry` (a native binding, `node:sqlite`). */
  module: string;
  /** Passed to the thread by structured clone. */
  input: I;
  /** The thread's JavaScript heap, in MiB (memory a native module allocates is bounded by the task itself). */
  heapMb: number;
  deadlineMs: number;
};

/** Runs `task.entry` on a new thread; resolves with its answer, rejects with its error, TaskDeadline or TaskStopped. */
export function runInWorker<I, O>(task: WorkerTask<I, O>): Promise<O> {
  const source = `const { parentPort, workerData } = require("node:worker_threads");
${[task.entry, ...(task.helpers ?? [])].map(String).join("\n")}
Promise.resolve()
  .then(() => ${task.entry.name}(require(workerData.module), workerData.input))
  .then(
    (outcome) => parentPort.postMessage({ outcome }),
    (error) => parentPort.postMessage({ error: String((error && error.message) || error) }),
  );`;
  return new Promise<O>((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { module: task.module, input: task.input },
      resourceLimits: { maxOldGenerationSizeMb: task.heapMb },
    });
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      finish();
      void worker.terminate();
    };
    const deadline = setTimeout(
      () => settle(() => reject(new TaskDeadline(`over ${task.deadlineMs} ms`))),
      task.deadlineMs,
    );
    deadline.unref();
    worker.once("message", (message: { outcome?: O; error?: string }) =>
      settle(() => ("error" in message ? reject(new Error(message.error)) : resolve(message.outcome as O))),
    );
    worker.once("error", (error) => settle(() => reject(new TaskStopped(error.message, { cause: error }))));
    worker.once("exit", (code) => settle(() => reject(new TaskStopped(`the worker stopped (${code})`))));
  });
}
