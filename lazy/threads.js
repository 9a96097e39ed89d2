// Node's worker threads for the CPU-heavy parts of a tool call (the package's `#lazy` import, default
// condition; see `offThread` in lazy/node.js): HTML → Markdown for web_fetch, and edit_file's large diffs
// and no_match hints. The calling thread only posts the input and waits, so its event loop stays free;
// a task whose signal aborts (the call's deadline or cancel) has its thread terminated at once.

/**
 * Most threads at once: 2, whatever the core count, so one long task (a huge page converting until
 * its deadline) cannot keep every other call waiting; more tasks wait their turn (their signal still
 * ends the wait). The threads run at the OS's priority like the caller: the calling thread's event
 * loop stays free because it only posts and waits.
 */
const MAX_THREADS = 2;
/** A thread idle this long (ms) is terminated, so a process that converted one big page does not keep its heap. */
const IDLE_MS = 10_000;
/** Heap of each thread (MiB): past it the task answers `too_large` (the thread is terminated by V8). */
const HEAP_MB = 512;
/** Stack of each thread (MiB): room for the converters' recursion up to the depth cap. */
const STACK_MB = 8;

/**
 * A pool of up to 2 worker threads running lazy/thread-worker.js, or undefined where
 * `node:worker_threads` is missing. `run(task, input, signal)` resolves with the task's value, or rejects
 * with `signal.reason` when the signal aborts (the thread is terminated), with a `{ name: 'ToolError',
 * code, message }` object for an error the task answered with, `too_large` when the thread ran out of
 * memory, `unavailable` when it could not start or died.
 */
export function createThreadPool(workerUrl) {
  const get = globalThis.process?.getBuiltinModule;
  const threads = typeof get === 'function' ? get('node:worker_threads') : undefined;
  if (typeof threads?.Worker !== 'function') return undefined;
  const idle = [];
  const waiting = [];
  let live = 0;
  let nextId = 1;

  const toolError = (code, message) => Object.assign(new Error(message), { name: 'ToolError', code });

  /** A new thread, or undefined when it cannot start. */
  const spawn = () => {
    try {
      const worker = new threads.Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, stackSizeMb: STACK_MB } });
      live += 1;
      worker.once('exit', () => {
        live -= 1;
        const at = idle.findIndex((entry) => entry.worker === worker);
        if (at !== -1) {
          clearTimeout(idle[at].timer);
          idle.splice(at, 1);
        }
        next();
      });
      return worker;
    } catch {
      return undefined;
    }
  };

  /** Hands `worker` to the next waiting task, or keeps it idle (unreferenced) until {@link IDLE_MS} pass. */
  const release = (worker) => {
    const job = waiting.shift();
    if (job) return start(worker, job);
    worker.unref();
    const timer = setTimeout(() => void worker.terminate(), IDLE_MS);
    timer.unref?.();
    idle.push({ worker, timer });
  };

  /** Starts the first waiting task when a thread is free or may be started. */
  const next = () => {
    while (waiting.length > 0 && (idle.length > 0 || live < MAX_THREADS)) {
      const free = idle.pop();
      if (free) clearTimeout(free.timer);
      const worker = free?.worker ?? spawn();
      const job = waiting.shift();
      if (!worker) return job.reject(toolError('unavailable', 'a worker thread could not be started; try again'));
      start(worker, job);
    }
  };

  /** Runs `job` on `worker`, settling it once: by the answer, the thread's death, or the signal. */
  const start = (worker, job) => {
    const id = nextId++;
    worker.ref();
    let settled = false;
    const finish = (fn) => {
      if (settled) return;
      settled = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      job.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onMessage = (answer) => {
      if (answer?.id !== id) return;
      finish(() => {
        release(worker);
        if (answer.ok) job.resolve(answer.value);
        else job.reject(toolError(answer.code, answer.message));
      });
    };
    const onError = (error) =>
      finish(() => {
        void worker.terminate();
        const memory = error?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(memory ? toolError('too_large', `${job.what} needs more than ${HEAP_MB} MiB of memory`) : toolError('unavailable', `the worker thread for ${job.what} failed: ${error?.message ?? String(error)}`));
      });
    const onExit = (code) => finish(() => job.reject(toolError('unavailable', `the worker thread for ${job.what} exited (code ${code}); try again`)));
    const onAbort = () =>
      finish(() => {
        void worker.terminate();
        job.reject(job.signal.reason);
      });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    job.signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ id, task: job.task, input: job.input });
  };

  return {
    /** Runs `task` (`'html'`, `'diff'`, `'hint'`) on `input` in a thread; `what` names it in errors. */
    run(task, input, { signal, what = task } = {}) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const job = { task, input, signal, what, resolve, reject };
        const onWaitAbort = () => {
          const at = waiting.indexOf(job);
          if (at === -1) return;
          waiting.splice(at, 1);
          reject(signal.reason);
        };
        signal?.addEventListener('abort', onWaitAbort, { once: true });
        const settle = (fn) => (value) => {
          signal?.removeEventListener('abort', onWaitAbort);
          fn(value);
        };
        job.resolve = settle(resolve);
        job.reject = settle(reject);
        waiting.push(job);
        next();
      });
    },
    /** Threads running or idle. */
    get threads() {
      return live;
    },
    /** Threads running a task now. */
    get busy() {
      return live - idle.length;
    },
  };
}
