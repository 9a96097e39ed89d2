// Glob parsing: a glob becomes a tree of nodes, each a regular language over UTF-16 code units;
// the balance check and the limits every glob is held to.
import { quoteForMessage } from '../fs/text.js';
/** Longest glob accepted, in UTF-16 code units; a longer one is refused with `invalid_pattern`. */
export const MAX_GLOB_LENGTH = 1000;
/** Most names one brace range such as `{1..20}` may stand for. */
export const MAX_BRACE_RANGE = 1000;
/** Source of the POSIX classes `[[:alpha:]]` etc. inside a character class (as picomatch's). */
export const POSIX_CLASSES = {
    alnum: 'a-zA-Z0-9',
    alpha: 'a-zA-Z',
    ascii: '\\x00-\\x7F',
    blank: ' \\t',
    cntrl: '\\x00-\\x1F\\x7F',
    digit: '0-9',
    graph: '\\x21-\\x7E',
    lower: 'a-z',
    print: '\\x20-\\x7E ',
    punct: '\\-!"#$%&\'()\\*+,./:;<=>?@[\\]^_`{|}~',
    space: ' \\t\\r\\n\\v\\f',
    upper: 'A-Z',
    word: 'A-Za-z0-9_',
    xdigit: 'A-Fa-f0-9',
};
/** Index of the `]` closing the class opened by the `[` at `start`, or -1 (POSIX bracket rules). */
export function classEnd(pattern, start) {
    let j = start + 1;
    if (pattern[j] === '!' || pattern[j] === '^')
        j += 1;
    if (pattern[j] === ']')
        j += 1;
    for (; j < pattern.length; j += 1) {
        const d = pattern[j];
        if (d === '\\') {
            j += 1;
        }
        else if (d === '[' && pattern[j + 1] === ':') {
            const end = pattern.indexOf(':]', j + 2);
            if (end !== -1)
                j = end + 1;
        }
        else if (d === ']') {
            return j;
        }
    }
    return -1;
}
/**
 * Checks that every `{` has its `}` and every `[` its `]` (picomatch silently treats an unbalanced one
 * as a literal, so `{a,b` would match nothing instead of failing). A backslash escapes the next
 * character; inside `[...]` a `]` right after `[`, `[!` or `[^` is literal (POSIX bracket rules), and
 * `[:alpha:]` classes are allowed. Returns a message for the model, or null when balanced.
 */
export function checkGlobBalance(pattern) {
    let braces = 0;
    for (let i = 0; i < pattern.length; i += 1) {
        const c = pattern[i];
        if (c === '\\') {
            i += 1;
            continue;
        }
        if (c === '[') {
            const end = classEnd(pattern, i);
            if (end === -1)
                return `"[" at offset ${i} has no closing "]"; close the bracket or escape it as \\[`;
            i = end;
        }
        else if (c === ']') {
            return `"]" at offset ${i} has no opening "["; escape it as \\]`;
        }
        else if (c === '{') {
            braces += 1;
        }
        else if (c === '}') {
            if (braces === 0)
                return `"}" at offset ${i} has no opening "{"; escape it as \\}`;
            braces -= 1;
        }
    }
    if (braces > 0)
        return `${braces} "{" without a closing "}"; close the brace or escape it as \\{`;
    return null;
}
export function flush(seq) {
    if (seq.text.length > 0)
        seq.nodes.push({ kind: 'text', text: seq.text });
    seq.text = '';
}
export function push(seq, node) {
    flush(seq);
    seq.nodes.push(node);
}
/**
 * Parses a glob with picomatch's meaning (as configured by toolhost: `dot: true`, POSIX paths):
 * `*` `?` `[...]` (with `[!...]`, `[^...]`, `[[:alpha:]]`; a class without range or escape also
 * matches its own text, so `[id].tsx` finds a file of that name), `{a,b}` (nested, empty alternatives),
 * `{1..20}` / `{a..e}` ranges, `**` as a whole segment for any number of directories, extglobs
 * `@( )` `?( )` `*( )` `+( )`, a bare `( | )` group, `|` between alternatives at any level
 * (`*.ts|*.js`), `"quoted"` text, `\` escapes. `!(X)` (at most one, outside groups) matches what `*`
 * would, provided the rest of the path from there does not match X followed by the rest of the
 * pattern (picomatch checks only that X does not start there). An unmatched `(` or `)` is literal
 * (picomatch escapes the wrong parenthesis of its own output there). Ranges are expanded as bash does
 * (picomatch turns `{1..20}` into the class `[1-20]`).
 */
export class GlobParser {
    src;
    options;
    classes = [];
    /** The nodes of `!(X)` followed by the rest of the pattern: the lookahead an `assert` node checks. */
    lookahead = null;
    i = 0;
    before = 'bos';
    closeAt;
    matched;
    pendingNot = null;
    constructor(src, options) {
        this.src = src;
        this.options = options;
        // Pair brackets first, so that an unmatched `(` or `{` costs one pass, not a re-parse.
        this.closeAt = new Int32Array(src.length).fill(-1);
        this.matched = new Uint8Array(src.length);
        const stack = [];
        for (let i = 0; i < src.length; i += 1) {
            const c = src[i];
            if (c === '\\') {
                i += 1;
            }
            else if (c === '"') {
                const end = src.indexOf('"', i + 1);
                if (end === -1)
                    break;
                i = end;
            }
            else if (c === '[') {
                const end = classEnd(src, i);
                if (end !== -1)
                    i = end;
            }
            else if (c === '{' || c === '(') {
                stack.push(i);
            }
            else if (c === '}' || c === ')') {
                const top = stack[stack.length - 1];
                if (top !== undefined && src[top] === (c === '}' ? '{' : '(')) {
                    stack.pop();
                    this.closeAt[top] = i;
                    this.matched[i] = 1;
                }
            }
        }
    }
    parse() {
        const alts = [this.sequence('top')];
        while (this.i < this.src.length) {
            this.i += 1; // a `|` (picomatch passes it to its RegExp: `*.ts|*.js` is either)
            alts.push(this.sequence('top'));
        }
        if (this.pendingNot) {
            const { inner, seq, at } = this.pendingNot;
            this.lookahead = [{ kind: 'alt', alts: [inner] }, ...seq.slice(at + 2)];
        }
        return alts.length === 1 ? alts[0] : [{ kind: 'alt', alts }];
    }
    isOpen(i) {
        return (this.closeAt[i] ?? -1) !== -1;
    }
    isAltEnd(i, context) {
        const c = this.src[i];
        if (c === '|')
            return true;
        if (context === 'brace')
            return c === ',' || (c === '}' && this.matched[i] === 1);
        if (context === 'paren')
            return c === ')' && this.matched[i] === 1;
        return false;
    }
    /** Parses up to the end of the pattern or of the current alternative (`|`; `,` `}` in braces; `)` in groups). */
    sequence(context) {
        const src = this.src;
        const seq = { nodes: [], text: '', starBeforeSlash: false, last: null };
        this.before = context === 'top' ? 'bos' : 'alt';
        while (this.i < src.length && !this.isAltEnd(this.i, context)) {
            const i = this.i;
            const c = src[i];
            const next = src[i + 1];
            const last = seq.last;
            seq.last = null;
            const extglob = next === '(' && this.isOpen(i + 1) && src[i + 2] !== '?';
            if ((c === '+' && !extglob && (last !== null || (context === 'paren' && seq.text.length > 0))) || (c === '?' && !extglob && last === 'group')) {
                // picomatch hands these to its RegExp as quantifiers: `[0-9]+`, `{a,b}+`, `(a|b)?`, `(ab+)`.
                let node;
                if (last === null) {
                    node = { kind: 'text', text: seq.text.slice(-1) };
                    seq.text = seq.text.slice(0, -1);
                    flush(seq);
                }
                else
                    node = seq.nodes.pop();
                seq.nodes.push({ kind: 'repeat', min: c === '+' ? 1 : 0, many: c === '+', alts: [[node]] });
                this.i += 1;
                this.before = 'other';
            }
            else if (c === '\\' || c === '/') {
                const char = c === '/' ? '/' : (next ?? '\\');
                this.i += c === '\\' && next !== undefined ? 2 : 1;
                if (char === '/') {
                    const lastNode = seq.nodes[seq.nodes.length - 1];
                    seq.starBeforeSlash = seq.text.length === 0 && (lastNode?.kind === 'star' || lastNode?.kind === 'any');
                }
                seq.text += char;
                this.before = char === '/' ? 'slash' : 'other';
            }
            else if (c === '"') {
                const end = src.indexOf('"', i + 1);
                seq.text += end === -1 ? src.slice(i + 1) : src.slice(i + 1, end);
                this.i = end === -1 ? src.length : end + 1;
                this.before = 'other';
            }
            else if (c === '[' && classEnd(src, i) !== -1) {
                const end = classEnd(src, i);
                push(seq, this.charClass(i, end));
                this.i = end + 1;
                this.before = 'other';
                seq.last = 'class';
            }
            else if (c === '{' && this.isOpen(i)) {
                this.brace(i, seq);
            }
            else if (c === '(' && this.isOpen(i)) {
                push(seq, this.group(i + 1, 'alt'));
                seq.last = 'group';
            }
            else if ((c === '@' || c === '?' || c === '+' || c === '!') && extglob) {
                if (c === '!')
                    this.negatedGroup(i, context, seq);
                else {
                    push(seq, this.group(i + 2, c === '@' ? 'alt' : c === '?' ? 'optional' : 'plus'));
                    seq.last = 'group';
                }
            }
            else if (c === '?') {
                push(seq, { kind: 'one' });
                this.i += 1;
                this.before = 'other';
            }
            else if (c === '*') {
                let run = 1;
                while (src[i + run] === '*')
                    run += 1;
                const starGroup = src[i + run] === '(' && this.isOpen(i + run) && src[i + run + 1] !== '?';
                const stars = starGroup ? run - 1 : run;
                this.i = i + stars;
                if (stars === 2)
                    this.globstar(context, seq);
                else if (stars > 0)
                    push(seq, { kind: 'star' });
                if (starGroup) {
                    push(seq, this.group(this.i + 2, 'star'));
                    seq.last = 'group';
                }
                this.before = this.before === 'globslash' ? 'globslash' : 'other';
            }
            else {
                seq.text += c;
                this.i += 1;
                this.before = 'other';
            }
        }
        flush(seq);
        return seq.nodes;
    }
    /** `!(X)` at `start`: an `assert` node, then `*` (or `**` when X holds a `/`), the lookahead kept for later. */
    negatedGroup(start, context, seq) {
        if (context !== 'top')
            this.options.fail('!(...) is supported only outside {...} and (...) groups');
        if (this.pendingNot)
            this.options.fail('only one !(...) is supported in a pattern');
        const close = this.closeAt[start + 1];
        const inner = this.src.slice(start + 2, close);
        flush(seq);
        const at = seq.nodes.length;
        this.pendingNot = { inner: [this.group(start + 2, 'alt')], seq: seq.nodes, at };
        seq.nodes.push({ kind: 'assert' }, { kind: inner.length > 1 && inner.includes('/') ? 'any' : 'star' });
        this.before = 'other';
    }
    /** `**` ending at `this.i`: any number of directories when it is a whole segment, else `*` (picomatch's rules). */
    globstar(context, seq) {
        const src = this.src;
        const before = this.before;
        let j = this.i;
        if (before === 'other' || !(j === src.length || src[j] === '/' || this.isAltEnd(j, context))) {
            push(seq, { kind: 'star' });
            return;
        }
        // `/**/**` is `/**` (picomatch strips repeated globstar segments).
        while (src.startsWith('/**', j) && (j + 3 === src.length || src[j + 3] === '/'))
            j += 3;
        this.i = j;
        flush(seq);
        const last = seq.nodes[seq.nodes.length - 1];
        if (src[j] === '/' && before !== 'alt') {
            // `**/` at the start or `/**/` in the middle: zero or more directories, each with its `/`.
            const directories = { kind: 'alt', alts: [[{ kind: 'any' }, { kind: 'text', text: '/' }], []] };
            if (before === 'slash' && j + 1 < src.length && last?.kind === 'text') {
                // picomatch's `(?:\/G*\/|\/|$)`: the `/` before `**` is part of it, and the end of the path may stand for it all.
                seq.nodes.pop();
                if (last.text.length > 1)
                    seq.nodes.push({ kind: 'text', text: last.text.slice(0, -1) });
                seq.nodes.push({ kind: 'alt', alts: [[{ kind: 'text', text: '/' }, directories], [{ kind: 'end' }]] });
            }
            else
                seq.nodes.push(directories);
            this.i = j + 1;
            this.before = 'globslash';
            return;
        }
        if (j === src.length && before === 'slash' && !seq.starBeforeSlash && context === 'top' && last?.kind === 'text') {
            // A trailing `/**` also matches the directory itself: `src/**` matches `src` (not after `*/`).
            seq.nodes.pop();
            if (last.text.length > 1)
                seq.nodes.push({ kind: 'text', text: last.text.slice(0, -1) });
            seq.nodes.push({ kind: 'alt', alts: [[{ kind: 'text', text: '/' }, { kind: 'any' }], []] });
            return;
        }
        seq.nodes.push({ kind: 'any' });
    }
    /** `(`...`)` from `start` (just after the `(`) to its `)`: alternatives separated by `|`. */
    group(start, kind) {
        const close = this.closeAt[start - 1];
        this.i = start;
        const alts = [this.sequence('paren')];
        while (this.i < close && this.src[this.i] === '|') {
            this.i += 1;
            alts.push(this.sequence('paren'));
        }
        this.i = close + 1;
        this.before = 'other';
        if (kind === 'alt')
            return { kind: 'alt', alts };
        return { kind: 'repeat', min: kind === 'plus' ? 1 : 0, many: kind !== 'optional', alts };
    }
    /** `{`...`}` at `start`: alternatives separated by `,`, a range `{1..20}`, or literal braces around a glob. */
    brace(start, seq) {
        const close = this.closeAt[start];
        this.i = start + 1;
        const alts = [this.sequence('brace')];
        while (this.i < close && (this.src[this.i] === ',' || this.src[this.i] === '|')) {
            this.i += 1;
            alts.push(this.sequence('brace'));
        }
        this.i = close + 1;
        this.before = 'other';
        const range = alts.length > 1 ? null : this.range(this.src.slice(start + 1, close));
        if (alts.length > 1 || range) {
            push(seq, { kind: 'alt', alts: range ? range.map((text) => [{ kind: 'text', text }]) : alts });
            seq.last = 'brace';
            return;
        }
        // No comma, no range: the braces are literal, what is inside them is still a glob (as picomatch).
        seq.text += '{';
        flush(seq);
        seq.nodes.push(...alts[0]);
        seq.text += '}';
    }
    /** The names of a range `1..20`, `01..10`, `1..10..2`, `a..e` (bash's meaning), or null. */
    range(body) {
        const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
        const chars = numeric ? null : /^([^\\\d])\.\.([^\\\d])(?:\.\.(-?\d+))?$/.exec(body);
        const match = numeric ?? chars;
        if (!match)
            return null;
        const from = numeric ? Number(match[1]) : match[1].charCodeAt(0);
        const to = numeric ? Number(match[2]) : match[2].charCodeAt(0);
        const step = Math.abs(Number(match[3] ?? 1)) || 1;
        const count = Number.isSafeInteger(from) && Number.isSafeInteger(to) ? Math.floor(Math.abs(to - from) / step) + 1 : Infinity;
        if (count > MAX_BRACE_RANGE) {
            this.options.fail(`the range {${body.length > 40 ? `${body.slice(0, 40)}…` : body}} stands for ${count === Infinity ? 'too many' : count} names; ` +
                `at most ${MAX_BRACE_RANGE}: use a wildcard such as * or [0-9] instead`);
        }
        const a = match[1];
        const b = match[2];
        const width = numeric && (/^-?0\d/.test(a) || /^-?0\d/.test(b)) ? Math.max(a.length, b.length) : 0;
        const names = [];
        const down = to < from;
        for (let v = from; down ? v >= to : v <= to; v += down ? -step : step) {
            if (!numeric)
                names.push(String.fromCharCode(v));
            else if (v < 0)
                names.push(`-${String(-v).padStart(width - 1, '0')}`);
            else
                names.push(String(v).padStart(width, '0'));
        }
        return names;
    }
    /** The class `[...]` from `start` to `end` (its `]`), as a node; picomatch's conversion to a RegExp class. */
    charClass(start, end) {
        const src = this.src;
        let j = start + 1;
        let negated = false;
        if (src[j] === '!' || src[j] === '^') {
            negated = true;
            j += 1;
        }
        let body = '';
        let posix = false;
        if (src[j] === ']') {
            body += '\\]';
            j += 1;
        }
        while (j < end) {
            const d = src[j];
            if (d === '\\') {
                body += src.slice(j, j + 2);
                j += 2;
            }
            else if (d === '[' && src[j + 1] === ':') {
                const close = src.indexOf(':]', j + 2);
                const name = close !== -1 && close < end ? src.slice(j + 2, close) : '';
                const posixSource = Object.hasOwn(POSIX_CLASSES, name) ? POSIX_CLASSES[name] : undefined;
                if (posixSource !== undefined) {
                    body += posixSource;
                    posix = true;
                    j = close + 2;
                }
                else {
                    body += '[';
                    j += 1;
                }
            }
            else if (d === '[' || d === ']' || (d === '-' && j + 1 === end)) {
                body += `\\${d}`;
                j += 1;
            }
            else {
                body += d;
                j += 1;
            }
        }
        // A negated class never matches `/` (picomatch adds it), unless built from a POSIX class.
        const source = `[${negated ? '^' : ''}${body}${negated && !posix && !body.includes('/') ? '/' : ''}]`;
        let re;
        try {
            re = new RegExp(`^${source}$`, this.options.caseSensitive ? '' : 'i');
        }
        catch (error) {
            const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(error);
            return this.options.fail(`the class ${quoteForMessage(src.slice(start, end + 1))} is not valid (${reason})`);
        }
        this.classes.push(re);
        const node = { kind: 'class', index: this.classes.length - 1 };
        // picomatch also matches the class's own text when it has no range, escape or special character.
        if (!negated && !posix && !/[-*+?.^${}(|)[\]]/.test(body)) {
            return { kind: 'alt', alts: [[node], [{ kind: 'text', text: `[${body}]` }]] };
        }
        return node;
    }
}
/** The same language read backwards (for the `!(...)` lookahead, run from the end of the path). */
export function reverseNodes(nodes) {
    return nodes
        .slice()
        .reverse()
        .map((node) => {
        if (node.kind === 'text')
            return { kind: 'text', text: node.text.split('').reverse().join('') };
        if (node.kind === 'alt')
            return { kind: 'alt', alts: node.alts.map(reverseNodes) };
        if (node.kind === 'repeat')
            return { ...node, alts: node.alts.map(reverseNodes) };
        return node;
    });
}
//# sourceMappingURL=glob-parse.js.map