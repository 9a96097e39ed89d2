// Unified diffs between two file images of the journal.
import { decodeText } from '../fs/text.js';
import { unifiedDiff } from '../tools/edit/diff.js';

/** What the diff needs of the journal: the bytes of a kept image. */
export interface BlobSource {
  blob(image: string): Promise<Uint8Array | undefined>;
}

/** The text of an image for a diff: `''` when absent; a note (in `note`) when it is not text or not kept. */
async function textOf(source: BlobSource, image: string, bytes?: Uint8Array, what?: string): Promise<{ text: string } | { note: string }> {
  if (image === 'absent') return { text: '' };
  if (what !== undefined) return { note: `now ${what}` };
  const held = bytes ?? (await source.blob(image));
  if (held === undefined) return { note: 'content not kept' };
  const decoded = decodeText(held);
  if (decoded === null) return { note: `binary, ${held.byteLength} bytes` };
  return { text: decoded.text };
}

/**
 * Unified diff of `path` from image `before` to image `after` (`'absent'` diffs as empty text), or a
 * note in parentheses when either side is binary or its content is not held (two `'unknown'` images
 * too: they may differ). `afterBytes` stands in for `after`'s blob (a file read now, not kept);
 * `afterWhat` says what is at `path` now when it is no file (`'a directory'`), for a note naming it.
 */
export async function diffImages(source: BlobSource, path: string, before: string, after: string, afterBytes?: Uint8Array, afterWhat?: string): Promise<string> {
  if (before === after && before !== 'unknown') return '';
  const [old, now] = await Promise.all([textOf(source, before), textOf(source, after, afterBytes, afterWhat)]);
  if ('note' in old || 'note' in now) {
    const describe = (side: { text: string } | { note: string }, image: string): string =>
      image === 'absent' ? 'absent' : 'note' in side ? side.note : `text, ${side.text.length} characters`;
    return `(no text diff of ${path}: before ${describe(old, before)}; after ${describe(now, after)})`;
  }
  try {
    return await unifiedDiff(path, old.text, now.text);
  } catch (error) {
    return `(no diff of ${path}: ${(error as Error).message})`;
  }
}
