// Glob matching: the tree compiled to a Thompson NFA, run as a lazily built DFA (linear in a path's length).
import { push } from './glob-parse.js';
/** Most automaton states one glob may compile to (brace ranges are counted expanded). */
export const MAX_STATES = 20_000;
/** Most cached matcher states (and NFA state numbers in them) kept per glob before the cache is cleared. */
export const MAX_CACHED_STATES = 2000;
export const MAX_CACHED_INTS = 400_000;
// ---------------------------------------------------------------------------------------------------
// Matching: a Thompson NFA run as a lazily built DFA. Each code unit of a path costs one table look-up
// once its state is cached, and at most one step over the NFA's states otherwise, so matching takes
// time linear in the path's length whatever the pattern (a backtracking RegExp takes exponential time
// on `*a*a*a*a*a*a*a*ab` against a long run of `a`).
export const LIT = 0;
export const ONE = 1;
export const ANY = 2;
export const CLS = 3;
export const SPLIT = 4;
export const MATCH = 5;
export const ASSERT = 6;
export const END = 7;
export const SLASH = 0x2f;
/** The code unit a case-insensitive JavaScript RegExp (no `u` flag) compares: ES Canonicalize. */
export function canonicalize(code) {
    const upper = String.fromCharCode(code).toUpperCase();
    if (upper.length !== 1)
        return code;
    const unit = upper.charCodeAt(0);
    return code >= 128 && unit < 128 ? code : unit;
}
export const ASCII_FOLD = Int32Array.from({ length: 128 }, (_, code) => canonicalize(code));
export const foldCache = new Map();
export function fold(code) {
    if (code < 128)
        return ASCII_FOLD[code];
    let folded = foldCache.get(code);
    if (folded === undefined) {
        folded = canonicalize(code);
        foldCache.set(code, folded);
    }
    return folded;
}
export class Nfa {
    caseSensitive;
    tooBig;
    kind = [];
    arg = [];
    out = [];
    eps = [];
    start;
    constructor(nodes, caseSensitive, tooBig) {
        this.caseSensitive = caseSensitive;
        this.tooBig = tooBig;
        this.start = this.build(nodes, this.add(MATCH, 0, -1));
    }
    add(kind, arg, out, eps = []) {
        if (this.kind.length >= MAX_STATES)
            this.tooBig();
        this.kind.push(kind);
        this.arg.push(arg);
        this.out.push(out);
        this.eps.push(eps);
        return this.kind.length - 1;
    }
    /** Builds `nodes` back to front, each ending at `next`; returns the first state. */
    build(nodes, next) {
        for (let k = nodes.length - 1; k >= 0; k -= 1) {
            const node = nodes[k];
            switch (node.kind) {
                case 'text':
                    for (let j = node.text.length - 1; j >= 0; j -= 1) {
                        const code = node.text.charCodeAt(j);
                        next = this.add(LIT, this.caseSensitive ? code : fold(code), next);
                    }
                    break;
                case 'one':
                    next = this.add(ONE, 0, next);
                    break;
                case 'star':
                case 'any': {
                    const loop = this.add(SPLIT, 0, -1);
                    const step = this.add(node.kind === 'star' ? ONE : ANY, 0, loop);
                    this.eps[loop] = [step, next];
                    next = loop;
                    break;
                }
                case 'class':
                    next = this.add(CLS, node.index, next);
                    break;
                case 'alt': {
                    const end = next;
                    next = this.add(SPLIT, 0, -1, node.alts.map((alt) => this.build(alt, end)));
                    break;
                }
                case 'repeat': {
                    const end = next;
                    if (!node.many) {
                        next = this.add(SPLIT, 0, -1, [...node.alts.map((alt) => this.build(alt, end)), end]);
                        break;
                    }
                    const loop = this.add(SPLIT, 0, -1);
                    const starts = node.alts.map((alt) => this.build(alt, loop));
                    this.eps[loop] = [...starts, end];
                    next = node.min === 0 ? loop : this.add(SPLIT, 0, -1, starts);
                    break;
                }
                case 'assert':
                    next = this.add(ASSERT, 0, next);
                    break;
                case 'end':
                    next = this.add(END, 0, next);
                    break;
            }
        }
        return next;
    }
}
/** Runs an {@link Nfa} over a string; a `lookaheadOk()` callback decides `ASSERT` states at the current position. */
export class NfaRunner {
    nfa;
    classes;
    mark;
    generation = 0;
    stack = [];
    constructor(nfa, classes) {
        this.nfa = nfa;
        this.classes = classes;
        this.mark = new Uint32Array(nfa.kind.length);
    }
    /** Starts a new state set (a fresh generation of marks). */
    begin() {
        this.generation += 1;
        if (this.generation === 0xffffffff) {
            this.mark.fill(0);
            this.generation = 1;
        }
    }
    /**
     * Adds `state` and every state reachable from it without input to `into` (no split states). An `END`
     * state is passed only `atEnd` of the input, and kept in `into` otherwise.
     */
    close(state, into, lookaheadOk, atEnd = false) {
        const { kind, eps, out } = this.nfa;
        const stack = this.stack;
        stack.push(state);
        while (stack.length > 0) {
            const s = stack.pop();
            if (this.mark[s] === this.generation)
                continue;
            this.mark[s] = this.generation;
            const k = kind[s];
            if (k === SPLIT) {
                const next = eps[s];
                for (let j = next.length - 1; j >= 0; j -= 1)
                    stack.push(next[j]);
            }
            else if (k === ASSERT) {
                if (lookaheadOk?.())
                    stack.push(out[s]);
            }
            else if (k === END && atEnd) {
                stack.push(out[s]);
            }
            else {
                into.push(s);
            }
        }
    }
    /** Whether `state` consumes the (folded) code unit `code`. */
    accepts(state, code) {
        switch (this.nfa.kind[state]) {
            case LIT:
                return this.nfa.arg[state] === code;
            case ONE:
                return code !== SLASH;
            case ANY:
                return true;
            case CLS:
                return this.classes[this.nfa.arg[state]].test(String.fromCharCode(code));
            default:
                return false;
        }
    }
    /** The states after `code` from `states`. */
    step(states, code, lookaheadOk) {
        const next = [];
        this.begin();
        for (let j = 0; j < states.length; j += 1) {
            const s = states[j];
            if (this.accepts(s, code))
                this.close(this.nfa.out[s], next, lookaheadOk);
        }
        return next;
    }
    /** Whether `states` accept the input read so far, `END` states passed when it is `atEnd` (a fresh generation of marks). */
    isAccepting(states, atEnd, lookaheadOk) {
        const { kind, out } = this.nfa;
        let ends;
        for (let j = 0; j < states.length; j += 1) {
            const s = states[j];
            if (kind[s] === MATCH)
                return true;
            if (kind[s] === END && atEnd)
                (ends ??= []).push(s);
        }
        if (!ends)
            return false;
        const reached = [];
        this.begin();
        for (const s of ends)
            this.close(out[s], reached, lookaheadOk, true);
        return reached.some((s) => kind[s] === MATCH);
    }
}
/** An NFA without lookahead run as a DFA built on demand (bounded cache, cleared when full). */
export class LazyDfa {
    runner;
    caseSensitive;
    cache = [];
    ids = new Map();
    ints = 0;
    startStates;
    constructor(runner, caseSensitive) {
        this.runner = runner;
        this.caseSensitive = caseSensitive;
        this.startStates = [];
        runner.begin();
        runner.close(runner.nfa.start, this.startStates);
        this.reset();
    }
    reset() {
        this.cache = [];
        this.ids.clear();
        this.ints = 0;
        this.intern(this.startStates);
    }
    intern(list) {
        const states = Int32Array.from(list).sort();
        const key = states.join(',');
        const known = this.ids.get(key);
        if (known !== undefined)
            return known;
        const id = this.cache.length;
        this.cache.push({ states, accept: this.runner.isAccepting(states, true), ascii: new Int32Array(128), other: undefined });
        this.ids.set(key, id);
        this.ints += states.length;
        return id;
    }
    /** Computes (and caches when there is room) the transition of cached state `from` on `code`: 0-based id or -1. */
    miss(from, code) {
        const current = this.cache[from];
        const list = this.runner.step(current.states, code);
        if (list.length === 0) {
            this.store(current, code, -1);
            return -1;
        }
        if (this.cache.length >= MAX_CACHED_STATES || this.ints >= MAX_CACHED_INTS) {
            this.reset();
            return this.intern(list);
        }
        const id = this.intern(list);
        this.store(current, code, id + 1);
        return id;
    }
    store(state, code, value) {
        if (code < 128)
            state.ascii[code] = value;
        else
            (state.other ??= new Map()).set(code, value);
    }
    matches(input) {
        let d = 0;
        for (let i = 0; i < input.length; i += 1) {
            const raw = input.charCodeAt(i);
            const code = this.caseSensitive ? raw : raw < 128 ? ASCII_FOLD[raw] : fold(raw);
            const state = this.cache[d];
            const cached = code < 128 ? state.ascii[code] : (state.other?.get(code) ?? 0);
            if (cached === -1)
                return false;
            if (cached > 0) {
                d = cached - 1;
                continue;
            }
            const next = this.miss(d, code);
            if (next < 0)
                return false;
            d = next;
        }
        return this.cache[d].accept;
    }
}
/**
 * A pattern with `!(X)`: the lookahead "X and the rest of the pattern match the rest of the path" is
 * known for every position after one backward pass of its reversed NFA, then the pattern runs forward
 * step by step (no cache: `ASSERT` depends on the position). Linear in the path's length.
 */
export class LookaheadMatcher {
    main;
    reversed;
    caseSensitive;
    constructor(main, reversed, caseSensitive) {
        this.main = main;
        this.reversed = reversed;
        this.caseSensitive = caseSensitive;
    }
    matches(input) {
        const n = input.length;
        const codes = new Int32Array(n);
        for (let i = 0; i < n; i += 1) {
            const raw = input.charCodeAt(i);
            codes[i] = this.caseSensitive ? raw : fold(raw);
        }
        // blocked[i]: the rest of the path from i matches the lookahead, so !(...) may not start at i.
        const blocked = new Uint8Array(n + 1);
        // Read backwards, the end of the path (an `END` state) is where the run starts.
        let states = [];
        this.reversed.begin();
        this.reversed.close(this.reversed.nfa.start, states, undefined, true);
        blocked[n] = this.reversed.isAccepting(states, n === 0) ? 1 : 0;
        for (let i = n - 1; i >= 0 && states.length > 0; i -= 1) {
            states = this.reversed.step(states, codes[i]);
            blocked[i] = this.reversed.isAccepting(states, false) ? 1 : 0;
        }
        let position = 0;
        const ok = () => blocked[position] === 0;
        states = [];
        this.main.begin();
        this.main.close(this.main.nfa.start, states, ok);
        for (let i = 0; i < n && states.length > 0; i += 1) {
            position = i + 1;
            states = this.main.step(states, codes[i], ok);
        }
        position = n;
        return this.main.isAccepting(states, true, ok);
    }
}
//# sourceMappingURL=glob-automaton.js.map