/**
 * A thread of the parallel runner (see parallel.ts): runs one description per message and answers with
 * its result, or with the error it threw. The solver and evaluation are loaded once, on first need. A
 * `null` message retires the thread: it closes its port and exits once idle.
 */
import { parentPort } from 'node:worker_threads';
import { loadTaoDeps, type TaoDeps } from './deps.js';
import { executeRun, type RunDescription, runsNeedDeps } from './parallel-run.js';
import type { WorkerReply } from './parallel.js';

let deps: TaoDeps | undefined;
const port = parentPort!;

port.on('message', (msg: { k: number; run: RunDescription } | null) => {
  if (msg === null) {
    port.close();
    return;
  }
  void (async () => {
    let reply: WorkerReply;
    try {
      if (deps === undefined && runsNeedDeps([msg.run])) deps = await loadTaoDeps();
      reply = { k: msg.k, result: executeRun(msg.run, deps) };
    } catch (err) {
      reply = {
        k: msg.k,
        error: {
          name: err instanceof Error ? err.name : 'Error',
          message: err instanceof Error ? err.message : String(err),
        },
      };
    }
    port.postMessage(reply);
  })();
});
