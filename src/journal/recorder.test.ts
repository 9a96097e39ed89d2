import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { CallCapture, journalingFs, type KeepBytes } from './recorder.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A keep whose hashes finish only when the test releases them: each answers `img:<content>`. */
function heldKeep(options: { stamp?: KeepBytes['stamp'] } = {}): { keep: KeepBytes; kept: string[]; release(content: string): void } {
  const waiting = new Map<string, () => void>();
  const kept: string[] = [];
  const keep = Object.assign(
    async (bytes: Uint8Array): Promise<string> => {
      const content = text(bytes);
      kept.push(content);
      await new Promise<void>((resolve) => waiting.set(content, resolve));
      return `img:${content}`;
    },
    { maxFileBytes: 1000, stamp: options.stamp },
  );
  const release = (content: string): void => {
    const go = waiting.get(content);
    if (!go) throw new Error(`nothing is hashing ${content}`);
    go();
  };
  return { keep, kept, release };
}

/** Lets pending promise callbacks run. */
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('journaling fs: post-images of bytes written', () => {
  it('answers a write before its post-image is hashed where no stamps are taken; settled waits for the hash', async () => {
    const platform = createMemoryPlatform({ files: { 'a.txt': 'old' } });
    const call = new CallCapture('c1', 'write');
    const { keep, release } = heldKeep();
    const fs = journalingFs(platform.fs, call, keep);
    // The pre-image ('old') is read and kept before the write: release it as soon as it is asked for.
    const writing = fs.writeFile('/workspace/a.txt', 'new');
    await tick();
    release('old');
    await writing;
    expect(text(await platform.fs.readFile('/workspace/a.txt'))).toBe('new');
    expect(call.after.has('/workspace/a.txt')).toBe(false);
    let settled = false;
    const settling = call.settled().then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    release('new');
    await settling;
    expect(call.before.get('/workspace/a.txt')).toBe('img:old');
    expect(call.after.get('/workspace/a.txt')).toBe('img:new');
  });

  it('keeps the last of two writes to one path as its post-image when the first one\'s hash finishes last', async () => {
    const platform = createMemoryPlatform();
    const call = new CallCapture('c1', 'write');
    const { keep, release } = heldKeep();
    const fs = journalingFs(platform.fs, call, keep);
    await fs.writeFile('/workspace/b.txt', 'first');
    await fs.writeFile('/workspace/b.txt', 'second');
    release('second');
    await tick();
    expect(call.after.get('/workspace/b.txt')).toBe('img:second');
    release('first');
    await call.settled();
    expect(call.before.get('/workspace/b.txt')).toBe('absent');
    expect(call.after.get('/workspace/b.txt')).toBe('img:second');
  });

  it('takes a later change that is read (a rename) after the earlier write\'s hash: the rename\'s images win', async () => {
    const platform = createMemoryPlatform();
    const call = new CallCapture('c1', 'write');
    const { keep, release } = heldKeep();
    const fs = journalingFs(platform.fs, call, keep);
    await fs.writeFile('/workspace/c.txt', 'moved');
    const renaming = fs.rename('/workspace/c.txt', '/workspace/d.txt');
    await tick();
    // The rename waits for the write's hash before it takes its own images.
    release('moved');
    await tick();
    // Reading d.txt after the rename keeps its bytes again: release that hash too.
    release('moved');
    await renaming;
    await call.settled();
    expect(call.after.get('/workspace/c.txt')).toBe('absent');
    expect(call.after.get('/workspace/d.txt')).toBe('img:moved');
    expect(call.before.get('/workspace/d.txt')).toBe('absent');
  });

  it('waits for the hash inside the write where stamps are taken (commands are watched), and remembers the stamp of the bytes written', async () => {
    const platform = createMemoryPlatform();
    const call = new CallCapture('c1', 'write');
    const stamps: Array<[string, string]> = [];
    const { keep, release } = heldKeep({ stamp: (path, _stamp, image) => void stamps.push([path, image]) });
    const fs = journalingFs(platform.fs, call, keep);
    let written = false;
    const writing = fs.writeFile('/workspace/e.txt', 'stamped').then(() => (written = true));
    await tick();
    await tick();
    expect(written).toBe(false);
    release('stamped');
    await writing;
    expect(call.after.get('/workspace/e.txt')).toBe('img:stamped');
    expect(stamps).toEqual([['/workspace/e.txt', 'img:stamped']]);
  });

  it('takes no stamp for a pre-image: the post-image\'s stamp is the one remembered', async () => {
    const platform = createMemoryPlatform({ files: { 'f.txt': 'before' } });
    const call = new CallCapture('c1', 'write');
    const stamps: Array<[string, string]> = [];
    const { keep, release } = heldKeep({ stamp: (path, _stamp, image) => void stamps.push([path, image]) });
    const fs = journalingFs(platform.fs, call, keep);
    const writing = fs.writeFile('/workspace/f.txt', 'after');
    await tick();
    release('before');
    await tick();
    await tick();
    release('after');
    await writing;
    expect(call.before.get('/workspace/f.txt')).toBe('img:before');
    expect(stamps).toEqual([['/workspace/f.txt', 'img:after']]);
  });
});
