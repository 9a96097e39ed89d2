import { parseArguments } from './common.js';
import { ModelError } from './types.js';
/**
 * A {@link Model} for tests and demos: each `generate` plays the next step of `turns`. Rejects with
 * `cancelled` when the request's signal has fired, and with `script_exhausted` when the script has no
 * step left (so a test that expects a run to end sooner fails loudly).
 */
export function scriptedModel(turns, options = {}) {
    const requests = [];
    let next = 0;
    return {
        provider: 'scripted',
        model: options.model ?? 'scripted',
        requests,
        async generate(request) {
            if (request.signal?.aborted)
                throw new ModelError('cancelled', 'scripted model request was cancelled', { provider: 'scripted' });
            const snapshot = { messages: structuredClone([...request.messages]), tools: [...request.tools] };
            if (request.system !== undefined)
                snapshot.system = request.system;
            requests.push(snapshot);
            const turn = next;
            const step = turns[turn];
            if (step === undefined) {
                throw new ModelError('script_exhausted', `scripted model has ${turns.length} turns and was asked for turn ${turn + 1}`, { provider: 'scripted' });
            }
            next += 1;
            const played = typeof step === 'function' ? await step({ ...request, turn }) : step;
            if (request.signal?.aborted)
                throw new ModelError('cancelled', 'scripted model request was cancelled', { provider: 'scripted' });
            const toolCalls = (played.toolCalls ?? []).map((call, index) => {
                const out = { id: call.id ?? `call_${turn + 1}_${index + 1}`, name: call.name, args: {} };
                if (typeof call.args === 'string') {
                    const parsed = parseArguments(call.args);
                    out.args = parsed.args;
                    if (parsed.error !== undefined) {
                        out.argumentsError = parsed.error;
                        out.rawArguments = call.args;
                    }
                }
                else
                    out.args = call.args ?? {};
                return out;
            });
            return played.text !== undefined ? { text: played.text, toolCalls } : { toolCalls };
        },
    };
}
//# sourceMappingURL=scripted.js.map