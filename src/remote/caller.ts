/**
 * The page side of comlink's request protocol, spoken directly: a request is the message comlink's
 * `wrap` proxy would post (`{ id, type: 'APPLY', path: [method], argumentList: [{ type: 'RAW', value }] }`),
 * served by comlink's `expose` in the worker, and its answer (`{ id, type: 'RAW', value }`, or a
 * transfer handler's value such as a thrown error's) is decoded as comlink decodes it. The same
 * messages as through the proxy, without its per-call costs: a Proxy trap, a random id of four
 * `Math.random` draws, argument and transfer lists built and flattened, and a second `message`
 * listener on the endpoint. Answers reach {@link WorkerCaller.receive} from the session's one listener.
 */
import { transferHandlers, type Endpoint } from 'comlink';
import { newIdSource, type ToolRunnerWorkerApi } from './protocol.js';

/** The worker's methods, each sending one request and resolving with the worker's answer. */
export type WorkerMethods = { [K in keyof ToolRunnerWorkerApi]: (...args: Parameters<ToolRunnerWorkerApi[K]>) => ReturnType<ToolRunnerWorkerApi[K]> };

/** Requests to one worker and their pending answers. */
export interface WorkerCaller {
  readonly methods: WorkerMethods;
  /** Settles the request `data` answers; false for any other message (a notice, another client's answer). */
  receive(data: unknown): boolean;
  /** Forgets every pending request (the worker has ended: its session settles the calls). */
  clear(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/** comlink's wire value: a plain value, or one a registered transfer handler serialized (`throw`: an error). */
interface WireValue {
  type?: unknown;
  name?: unknown;
  value?: unknown;
}

/** Decodes an answer's value as comlink's `wrap` does; a thrown error's handler throws it again. */
function fromWire(data: WireValue): unknown {
  if (data.type === 'HANDLER') {
    const handler = transferHandlers.get(data.name as string);
    if (!handler) throw new Error(`the tool worker answered with a value of an unknown comlink transfer handler (${String(data.name)})`);
    return handler.deserialize(data.value);
  }
  return data.value;
}

/** A {@link WorkerCaller} posting to `endpoint` (whose listener must hand every message to `receive`). */
export function workerCaller(endpoint: Endpoint): WorkerCaller {
  const pending = new Map<string, Pending>();
  const nextId = newIdSource();

  const call = (method: keyof ToolRunnerWorkerApi, argumentList: { type: 'RAW'; value: unknown }[]): Promise<never> =>
    new Promise<never>((resolve, reject) => {
      const id = nextId();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        endpoint.postMessage({ id, type: 'APPLY', path: [method], argumentList }, []);
      } catch (error) {
        // Arguments that cannot be cloned (DataCloneError), or a closed endpoint: the request never left.
        pending.delete(id);
        reject(error);
      }
    });
  const none = (name: keyof ToolRunnerWorkerApi) => () => call(name, []);
  const one = (name: keyof ToolRunnerWorkerApi) => (value: unknown) => call(name, [{ type: 'RAW', value }]);

  const methods: WorkerMethods = {
    ping: none('ping'),
    hello: none('hello'),
    declarations: none('declarations'),
    tools: none('tools'),
    setPermissions: one('setPermissions'),
    setPlanMode: one('setPlanMode'),
    execute: one('execute'),
    processToolCalls: one('processToolCalls'),
    register: one('register'),
    unregister: one('unregister'),
    journal: one('journal'),
  };

  return {
    methods,
    receive(data) {
      const id = typeof data === 'object' && data !== null ? (data as { id?: unknown }).id : undefined;
      if (typeof id !== 'string') return false;
      const request = pending.get(id);
      if (!request) return false;
      pending.delete(id);
      try {
        request.resolve(fromWire(data as WireValue));
      } catch (error) {
        request.reject(error);
      }
      return true;
    },
    clear() {
      pending.clear();
    },
  };
}
