import { type GlobNode } from './glob-parse.js';
/** Most automaton states one glob may compile to (brace ranges are counted expanded). */
export declare const MAX_STATES = 20000;
/** Most cached matcher states (and NFA state numbers in them) kept per glob before the cache is cleared. */
export declare const MAX_CACHED_STATES = 2000;
export declare const MAX_CACHED_INTS = 400000;
export declare const LIT = 0;
export declare const ONE = 1;
export declare const ANY = 2;
export declare const CLS = 3;
export declare const SPLIT = 4;
export declare const MATCH = 5;
export declare const ASSERT = 6;
export declare const END = 7;
export declare const SLASH = 47;
/** The code unit a case-insensitive JavaScript RegExp (no `u` flag) compares: ES Canonicalize. */
export declare function canonicalize(code: number): number;
export declare const ASCII_FOLD: Int32Array<ArrayBuffer>;
export declare const foldCache: Map<number, number>;
export declare function fold(code: number): number;
export declare class Nfa {
    private readonly caseSensitive;
    private readonly tooBig;
    readonly kind: number[];
    readonly arg: number[];
    readonly out: number[];
    readonly eps: number[][];
    readonly start: number;
    constructor(nodes: GlobNode[], caseSensitive: boolean, tooBig: () => never);
    private add;
    /** Builds `nodes` back to front, each ending at `next`; returns the first state. */
    private build;
}
/** Runs an {@link Nfa} over a string; a `lookaheadOk()` callback decides `ASSERT` states at the current position. */
export declare class NfaRunner {
    readonly nfa: Nfa;
    private readonly classes;
    private readonly mark;
    private generation;
    private readonly stack;
    constructor(nfa: Nfa, classes: RegExp[]);
    /** Starts a new state set (a fresh generation of marks). */
    begin(): void;
    /**
     * Adds `state` and every state reachable from it without input to `into` (no split states). An `END`
     * state is passed only `atEnd` of the input, and kept in `into` otherwise.
     */
    close(state: number, into: number[], lookaheadOk?: () => boolean, atEnd?: boolean): void;
    /** Whether `state` consumes the (folded) code unit `code`. */
    accepts(state: number, code: number): boolean;
    /** The states after `code` from `states`. */
    step(states: ArrayLike<number>, code: number, lookaheadOk?: () => boolean): number[];
    /** Whether `states` accept the input read so far, `END` states passed when it is `atEnd` (a fresh generation of marks). */
    isAccepting(states: ArrayLike<number>, atEnd: boolean, lookaheadOk?: () => boolean): boolean;
}
export interface CachedState {
    states: Int32Array;
    accept: boolean;
    /** Next state per ASCII code unit: 0 unknown, -1 no match possible, k + 1 cached state k. */
    ascii: Int32Array;
    other: Map<number, number> | undefined;
}
/** An NFA without lookahead run as a DFA built on demand (bounded cache, cleared when full). */
export declare class LazyDfa {
    private readonly runner;
    private readonly caseSensitive;
    private cache;
    private readonly ids;
    private ints;
    private readonly startStates;
    constructor(runner: NfaRunner, caseSensitive: boolean);
    private reset;
    private intern;
    /** Computes (and caches when there is room) the transition of cached state `from` on `code`: 0-based id or -1. */
    private miss;
    private store;
    matches(input: string): boolean;
}
/**
 * A pattern with `!(X)`: the lookahead "X and the rest of the pattern match the rest of the path" is
 * known for every position after one backward pass of its reversed NFA, then the pattern runs forward
 * step by step (no cache: `ASSERT` depends on the position). Linear in the path's length.
 */
export declare class LookaheadMatcher {
    private readonly main;
    private readonly reversed;
    private readonly caseSensitive;
    constructor(main: NfaRunner, reversed: NfaRunner, caseSensitive: boolean);
    matches(input: string): boolean;
}
