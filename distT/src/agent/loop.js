import { invalidArgumentsResult, isFailure } from './models/common.js';
import { isModelError } from './models/types.js';
/**
 * The agent loop: appends the prompt, then asks the model (with `await runner.declarations()`), runs all
 * of one turn's tool calls through `runner.processToolCalls` in one batch (calls with unreadable arguments are answered with
 * `invalid_arguments` without running), appends the results, and repeats until the `finish` tool runs,
 * the model makes no tool call, `maxTurns` requests were made, the signal fires or the model fails.
 * Emits {@link AgentEvent}s through `emit`, ending with one `done`; never rejects.
 */
export async function runAgentLoop(options) {
    const { model, runner, history, conversationId, signal, emit } = options;
    let turns = 0;
    const done = (reason) => {
        emit({ type: 'done', reason, turns });
        return reason;
    };
    try {
        history.push({ role: 'user', text: options.prompt });
        while (true) {
            if (signal.aborted)
                return done('cancelled');
            if (turns >= options.maxTurns)
                return done('max_turns');
            let response;
            try {
                // Awaited inside this try: a remote runner's unreachable worker ends the run with an error event.
                const tools = await runner.declarations();
                if (signal.aborted)
                    return done('cancelled');
                const request = { messages: history.slice(), tools, signal };
                if (options.system !== undefined)
                    request.system = options.system;
                response = await model.generate(request);
            }
            catch (error) {
                if (signal.aborted || (isModelError(error) && error.code === 'cancelled'))
                    return done('cancelled');
                emit({ type: 'error', error: errorInfo(error) });
                return done('error');
            }
            turns += 1;
            const toolCalls = Array.isArray(response.toolCalls) ? response.toolCalls : [];
            const assistant = { role: 'assistant', toolCalls };
            if (response.text)
                assistant.text = response.text;
            if (response.replay)
                assistant.replay = response.replay;
            history.push(assistant);
            if (response.text)
                emit({ type: 'text', text: response.text });
            if (toolCalls.length === 0)
                return done(signal.aborted ? 'cancelled' : 'no_tool_calls');
            for (const call of toolCalls)
                emit({ type: 'tool_call', call: publicCall(call) });
            let results;
            if (signal.aborted) {
                // Keep the history well-formed for the next run: every call gets a result, none runs.
                results = toolCalls.map((call) => ({ id: call.id, name: call.name, code: 'cancelled', error: `${call.name} was not run: the run was cancelled` }));
            }
            else {
                const runnable = toolCalls.filter((call) => call.argumentsError === undefined);
                const ran = runnable.length > 0
                    ? await runner.processToolCalls(runnable.map(publicCall), { conversationId, signal })
                    : [];
                let next = 0;
                results = toolCalls.map((call) => (call.argumentsError !== undefined ? invalidArgumentsResult(call) : ran[next++]));
            }
            history.push({ role: 'tool', results });
            for (const result of results)
                emit({ type: 'tool_result', result });
            if (signal.aborted)
                return done('cancelled');
            const finished = results.findIndex((result) => result.name === 'finish' && !isFailure(result));
            if (finished !== -1) {
                const call = toolCalls[finished];
                const value = call?.args?.result;
                emit(typeof value === 'string' ? { type: 'finish', result: value } : { type: 'finish' });
                return done('finished');
            }
        }
    }
    catch (error) {
        emit({ type: 'error', error: { code: 'internal', message: `agent loop failed: ${error instanceof Error ? error.message : String(error)}` } });
        return done('error');
    }
}
function publicCall(call) {
    return { id: call.id, name: call.name, args: call.args };
}
function errorInfo(error) {
    if (isModelError(error)) {
        const info = { code: error.code, message: error.message, provider: error.provider };
        if (typeof error.status === 'number')
            info.status = error.status;
        return info;
    }
    const code = error?.code;
    return {
        code: typeof code === 'string' ? code : 'internal',
        message: error instanceof Error ? error.message : String(error),
    };
}
/**
 * A push-to-pull queue: `push` never blocks, iteration waits for the next value, `close` ends it.
 * Lets an async generator yield events produced by callbacks (permission prompts) while the loop awaits.
 */
export class EventChannel {
    #values = [];
    #waiting = [];
    #closed = false;
    /** Queues a value (ignored after `close`). */
    push(value) {
        if (this.#closed)
            return;
        const waiter = this.#waiting.shift();
        if (waiter)
            waiter({ value, done: false });
        else
            this.#values.push(value);
    }
    /** Ends iteration once the queued values are read. */
    close() {
        this.#closed = true;
        for (const waiter of this.#waiting.splice(0))
            waiter({ value: undefined, done: true });
    }
    [Symbol.asyncIterator]() {
        return {
            next: () => {
                if (this.#values.length > 0)
                    return Promise.resolve({ value: this.#values.shift(), done: false });
                if (this.#closed)
                    return Promise.resolve({ value: undefined, done: true });
                return new Promise((resolve) => this.#waiting.push(resolve));
            },
        };
    }
}
//# sourceMappingURL=loop.js.map