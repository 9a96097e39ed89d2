/** A `no_match` hint: the text that follows "old_string was not found in …", and the closest line (1-based). */
export interface NoMatchHint {
    hint: string;
    line?: number;
}
/**
 * The hint of a `no_match` error for `needleLf` (old_string, LF line breaks) in `fileLf` (the file's text,
 * LF line breaks): the closest line and how it differs, in words. Tries, in order: a byte order mark the
 * text lacks, a multi-line old_string whose first lines match ({@link prefixHint}), a line that differs
 * only in whitespace ({@link whitespaceHint}), and the most similar line ({@link similarLineHint}).
 */
export declare function noMatchHint(fileLf: string, needleLf: string, fileHasBom: boolean): NoMatchHint;
