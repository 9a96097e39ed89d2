import type { RegexNode } from './dialect-parse.js';

/**
 * A small Thompson-NFA matcher (a Pike VM) for the dialect's syntax trees, used where re2js cannot
 * say what ripgrep means: re2js's `\b` and `\B` know ASCII word characters only, while ripgrep's
 * default word boundary is Unicode's. It runs in time proportional to the input's length times the
 * program's size (each position holds each instruction at most once), with leftmost-first matches
 * (the first alternative that matches wins, greedy and lazy repetitions as written), as RE2 finds them.
 * Positions are UTF-16 offsets; the input is read a code point at a time.
 */

const ATOM = 0;
const SPLIT = 1;
const JMP = 2;
const ASSERT = 3;
const MATCH = 4;

interface Inst {
  op: number;
  /** ATOM: whether a code point matches. */
  test?: (cp: number) => boolean;
  /** ATOM, JMP, ASSERT: the next instruction; SPLIT: the preferred one. */
  x: number;
  /** SPLIT: the other one. */
  y: number;
  /** ASSERT: which, and whether its word characters are ASCII's. */
  kind?: 'start' | 'end' | 'word' | 'notword';
  ascii?: boolean;
}

/** The dialect's atoms, and its Unicode word characters, as the VM tests them. */
export interface PikeAtoms {
  /** The test of one `char` or `set` node. */
  atom(node: Extract<RegexNode, { type: 'char' | 'set' }>): (cp: number) => boolean;
  /** Whether `cp` is a Unicode word character (ripgrep's `\w`). */
  isWord(cp: number): boolean;
}

/** A compiled program: `find` as re2js's Matcher has it, over one input at a time. */
export interface PikeProgram {
  /** The leftmost-first match at or after `from` in `input` (the text before `from` is context for `^` and `\b`), or undefined. */
  find(input: string, from: number): [number, number] | undefined;
  /** Instructions in the program. */
  size: number;
}

function compile(tree: RegexNode, atoms: PikeAtoms): Inst[] {
  const prog: Inst[] = [];
  const emit = (inst: Inst): number => prog.push(inst) - 1;
  /** Emits `node` so that it continues at the instruction patched in later; returns its entry and the holes to patch. */
  const gen = (node: RegexNode): { entry: number; holes: Array<{ at: number; field: 'x' | 'y' }> } => {
    switch (node.type) {
      case 'char':
      case 'set': {
        const at = emit({ op: ATOM, test: atoms.atom(node), x: -1, y: -1 });
        return { entry: at, holes: [{ at, field: 'x' }] };
      }
      case 'assert': {
        const at = emit({ op: ASSERT, kind: node.kind, ascii: node.ascii === true, x: -1, y: -1 });
        return { entry: at, holes: [{ at, field: 'x' }] };
      }
      case 'group':
        return gen(node.body);
      case 'seq': {
        if (node.items.length === 0) {
          const at = emit({ op: JMP, x: -1, y: -1 });
          return { entry: at, holes: [{ at, field: 'x' }] };
        }
        let first: ReturnType<typeof gen> | undefined;
        let holes: Array<{ at: number; field: 'x' | 'y' }> = [];
        for (const item of node.items) {
          const part = gen(item);
          if (!first) first = part;
          else patch(holes, part.entry);
          holes = part.holes;
        }
        return { entry: (first as ReturnType<typeof gen>).entry, holes };
      }
      case 'alt': {
        // split(b0, split(b1, … b(n-1))): earlier branches first.
        const holes: Array<{ at: number; field: 'x' | 'y' }> = [];
        let entry = -1;
        let pending: { at: number; field: 'x' | 'y' } | undefined;
        node.branches.forEach((branch, i) => {
          const last = i === node.branches.length - 1;
          const split = last ? -1 : emit({ op: SPLIT, x: -1, y: -1 });
          const part = gen(branch);
          const head = last ? part.entry : split;
          if (!last) prog[split] = { op: SPLIT, x: part.entry, y: -1 };
          if (pending) patch([pending], head);
          else entry = head;
          pending = last ? undefined : { at: split, field: 'y' };
          holes.push(...part.holes);
        });
        return { entry, holes };
      }
      case 'repeat':
        return repeat(node);
    }
  };
  const patch = (holes: Array<{ at: number; field: 'x' | 'y' }>, to: number): void => {
    for (const hole of holes) (prog[hole.at] as Inst)[hole.field] = to;
  };
  /** `body{min,max}`: `min` copies, then a loop (max ∞) or `max - min` nested optional copies. */
  const repeat = (node: Extract<RegexNode, { type: 'repeat' }>): ReturnType<typeof gen> => {
    const entryJmp = emit({ op: JMP, x: -1, y: -1 });
    let holes: Array<{ at: number; field: 'x' | 'y' }> = [{ at: entryJmp, field: 'x' }];
    for (let i = 0; i < node.min; i += 1) {
      const part = gen(node.body);
      patch(holes, part.entry);
      holes = part.holes;
    }
    const optional = node.max === Infinity ? 1 : node.max - node.min;
    const exits: Array<{ at: number; field: 'x' | 'y' }> = [];
    for (let i = 0; i < optional; i += 1) {
      const split = emit({ op: SPLIT, x: -1, y: -1 });
      patch(holes, split);
      const part = gen(node.body);
      const [into, out] = node.lazy ? (['y', 'x'] as const) : (['x', 'y'] as const);
      (prog[split] as Inst)[into] = part.entry;
      exits.push({ at: split, field: out });
      if (node.max === Infinity) {
        patch(part.holes, split);
        holes = [];
      } else holes = part.holes;
    }
    return { entry: entryJmp, holes: [...holes, ...exits] };
  };
  const start = emit({ op: JMP, x: -1, y: -1 });
  const main = gen(tree);
  (prog[start] as Inst).x = main.entry;
  patch(main.holes, emit({ op: MATCH, x: -1, y: -1 }));
  return prog;
}

const ASCII_WORD = (cp: number): boolean => (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x5f || (cp >= 0x61 && cp <= 0x7a);

/** Compiles `tree` for {@link PikeProgram.find}. */
export function compilePike(tree: RegexNode, atoms: PikeAtoms): PikeProgram {
  const prog = compile(tree, atoms);
  const n = prog.length;
  const mark = new Uint32Array(n);
  let gen = 0;
  const find = (input: string, from: number): [number, number] | undefined => {
    const len = input.length;
    const cpAt = (p: number): number => (p < len ? (input.codePointAt(p) as number) : -1);
    const cpBefore = (p: number): number => {
      if (p <= 0) return -1;
      const low = input.charCodeAt(p - 1);
      if (low >= 0xdc00 && low <= 0xdfff && p >= 2) {
        const high = input.charCodeAt(p - 2);
        if (high >= 0xd800 && high <= 0xdbff) return input.codePointAt(p - 2) as number;
      }
      return low;
    };
    const holds = (inst: Inst, p: number): boolean => {
      if (inst.kind === 'start') return p === 0;
      if (inst.kind === 'end') return p === len;
      const word = inst.ascii ? ASCII_WORD : (cp: number): boolean => cp >= 0 && atoms.isWord(cp);
      const before = cpBefore(p);
      const after = cpAt(p);
      const boundary = (before >= 0 && word(before)) !== (after >= 0 && word(after));
      return inst.kind === 'word' ? boundary : !boundary;
    };
    let cpcs: number[] = [];
    let cstarts: number[] = [];
    let npcs: number[] = [];
    let nstarts: number[] = [];
    const stack: number[] = [];
    /** Adds `pc` and what it reaches without reading, at `p`, in priority order (once per list). */
    const add = (pcs: number[], starts: number[], pc0: number, p: number, start: number): void => {
      stack.push(pc0);
      while (stack.length > 0) {
        const pc = stack.pop() as number;
        if (mark[pc] === gen) continue;
        mark[pc] = gen;
        const inst = prog[pc] as Inst;
        if (inst.op === JMP) stack.push(inst.x);
        else if (inst.op === SPLIT) stack.push(inst.y, inst.x);
        else if (inst.op === ASSERT) {
          if (holds(inst, p)) stack.push(inst.x);
        } else {
          pcs.push(pc);
          starts.push(start);
        }
      }
    };
    gen += 1;
    let matched: [number, number] | undefined;
    for (let p = from; ; ) {
      if (!matched) add(cpcs, cstarts, 0, p, p);
      if (cpcs.length === 0 && matched) break;
      const cp = cpAt(p);
      const width = cp > 0xffff ? 2 : 1;
      gen += 1;
      for (let i = 0; i < cpcs.length; i += 1) {
        const inst = prog[cpcs[i] as number] as Inst;
        if (inst.op === MATCH) {
          matched = [cstarts[i] as number, p];
          break;
        }
        if (cp >= 0 && (inst.test as (cp: number) => boolean)(cp)) add(npcs, nstarts, inst.x, p + width, cstarts[i] as number);
      }
      if (p >= len) break;
      [cpcs, npcs] = [npcs, cpcs];
      [cstarts, nstarts] = [nstarts, cstarts];
      npcs.length = 0;
      nstarts.length = 0;
      p += width;
    }
    if (gen > 0xfffffff0) {
      mark.fill(0);
      gen = 0;
    }
    return matched;
  };
  return { find, size: n };
}
